module github.com/discgen/discgen

go 1.26.0

require (
	github.com/ProtonMail/go-crypto v1.5.2
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/dunglas/httpsfv v1.1.2
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/spf13/pflag v1.0.10
	github.com/temoto/robotstxt v1.1.2
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.35.0
	golang.org/x/term v0.34.0
)

require (
	github.com/cloudflare/circl v1.6.3 // indirect
	golang.org/x/crypto v0.41.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
