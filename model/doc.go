// Package model is the manifest as the stages after validation read it:
// the readings of manifest values that validation checks and rendering
// writes alike (the output path of a site-relative URL, the crawlers a
// verified group names, the robots.txt forms a usage writes). Package
// generate reads them here, not in package validate.
package model
