// Package panels holds discgen's adapters for hosting control panels:
// POSIX sh scripts, one a panel (cpanel/, plesk/, directadmin/,
// hestiacp/), and panel.sh, the part they share. It has no Go code; its
// tests run each adapter with the inputs its panel documents (JSON on
// standard input, environment variables, arguments) against a stub
// discgen and a stub runuser that record how they are called. In the long
// tier, run as root, TestCpanelEndToEnd, TestPleskEndToEnd,
// TestDirectAdminEndToEnd and TestHestiaCPEndToEnd run each adapter as its
// panel does, with the panel's variables or arguments, with the real
// discgen and runuser for an account of the user nobody: the uid each
// discgen call runs as, the files it builds, the exit status and the
// one-line refusals; and TestManifestDenyRules serves a user's directory, on real nginx, Apache
// and Caddy, with the rules docs/shared-host.md gives to deny a tenant's
// autodisc.yaml. See README.md.
package panels
