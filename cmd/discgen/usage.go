package main

const usage = `discgen publishes web discovery files from one YAML manifest.

Usage:
    discgen build    [-f site.yaml] [-o public] [--env NAME] [--check | --dry-run] [--now TIME]
                     [--tenant FILE...] [--shard K/N] [--format text|json|github]
    discgen validate [-f site.yaml] [--env NAME] [--format text|json|github] [--now TIME]
    discgen check    (-f site.yaml | --robots FILE) --agent NAME... URL...
    discgen lint     [--format text|json|github] [--now TIME] FILE...
    discgen resolve  -o DIR PATH
    discgen schema
    discgen init     [-f site.yaml] [--force]

Commands:
    build       Validate the manifest and write robots.txt, autodisc/, data.txt
                and .well-known/ into the output directory, and each tenant's
                autodisc/ into its own directory.
    validate    Check the manifest (JSON Schema, then semantic rules) and
                report every error and warning; write nothing.
    check       Say whether robots.txt allows each agent to fetch each URL,
                under RFC 9309 and under the 1996 draft.
    lint        Find problems in existing robots.txt, security.txt and
                autodisc files.
    resolve     Say which autodisc authority of a built tree governs a URL
                path, and where each autodisc file's value comes from.
    schema      Print the manifest's JSON Schema.
    init        Write a commented starter manifest.

Run 'discgen COMMAND -h' for a command's options and examples.

Exit status: 0 success; 1 invalid manifest or checked file, failed
expectation, or stale output (--check); 2 usage error.

Errors and warnings are printed to stderr as
    site.yaml:12:5: agents[2].names[0]: "Google bot" is not a product token
all of them, sorted by position.
`

const buildUsage = `Usage: discgen build [options]

Validate the manifest, then write every discovery file it describes. Nothing
is written unless the whole manifest is valid; each file is replaced
atomically, unchanged files are not rewritten, and files discgen wrote before
and no longer produces are removed. Files discgen did not write are never
touched: a hand-written file where an output goes is an error (see
--replace).

Tenant manifests found by a delegation's tenants glob are validated and
built one by one, into the directory that holds each. A tenant's space comes
from that directory (the glob's '*' matches fill the delegation's '*'s).
Every tenant ends built, unchanged, refused (invalid, a symlink, a FIFO or
other special file) or skipped (cannot be read): each refused or skipped one
is named, the others are built, and the exit status is 1.

Options:
    -f, --file FILE       the site manifest (default site.yaml)
    -o, --output DIR      the output directory (default public)
        --env NAME        apply the manifest's environments.NAME
        --check           write nothing; print a unified diff of what would
                          change and exit 1 if anything would
        --dry-run         write nothing; list what would change
        --now TIME        the time security.txt dates resolve against:
                          RFC 3339, a date, or @UNIXSECONDS (default:
                          $SOURCE_DATE_EPOCH, else the clock)
        --state DIR       where discgen records which files it wrote
                          (default .discgen beside the manifest); never
                          inside the output directory
        --replace         take over files discgen did not write
        --robots-symlink  make autodisc/robots.txt a symlink to /robots.txt
                          instead of a copy
        --server KINDS    also write web server configuration that sends the
                          right Content-Type and caching headers: any of
                          headers (_headers for Netlify and Cloudflare Pages)
                          and htaccess (.htaccess for Apache), both into the
                          output directory, and nginx and caddy (snippets to
                          include), into --server-dir; comma-separated
        --server-dir DIR  where nginx and caddy snippets go (default server
                          beside the manifest); never inside the output
        --jobs N          tenants in work at once (default 64: a tenant
                          mostly waits for its flush to disk, which the
                          tenants in work share)
        --tenant FILE...  build only these tenant manifests (each checked
                          against the delegation whose glob matches it);
                          the site's own tree is not touched
        --shard K/N       build the K-th of N stable partitions of the
                          tenants (the site in shard 1 only)
        --tenant-owner    give every file and directory written in a
                          tenant's directory to that directory's owner
                          (run as root)
        --format FORMAT   text, github (annotations), or json: one document
                          on stdout naming every output and tenant with its
                          directory, space, status and diagnostics

Examples:
    # After the site generator has written public/:
    discgen build -f site.yaml -o public

    # In CI: fail if the committed output is stale.
    discgen build -f site.yaml -o public --check

    # Reproducible output for a release:
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) discgen build -o public

    # A hosting panel, after a user saved their manifest:
    discgen build -f /etc/discgen/site.yaml --tenant /home/alice/public_html/autodisc.yaml
`

const validateUsage = `Usage: discgen validate [options]

Check the manifest against the JSON Schema and the semantic rules, and
report every error and warning, sorted by position. Tenant manifests are
checked too. Nothing is written.

Options:
    -f, --file FILE       the site manifest (default site.yaml)
        --env NAME        apply the manifest's environments.NAME
        --format FORMAT   text (default), json, or github (workflow
                          annotations: ::error file=...,line=...::...)
        --now TIME        as for build

Examples:
    discgen validate -f site.yaml
    discgen validate --format github   # in a GitHub Actions step
`

const checkUsage = `Usage: discgen check (-f site.yaml | --robots FILE) --agent NAME... URL...

Print, for each agent and URL, whether robots.txt allows the fetch: the
verdict word (ALLOWED or DISALLOWED) first, then the agent, the URL and the
deciding rule with its line. The RFC 9309 reading (Google's) decides; where
the 1996 draft's reading differs, the line says so. With -f, the robots.txt
checked is the one the manifest builds.

Options:
    -f, --file FILE       build robots.txt from this manifest
        --env NAME        with -f: apply environments.NAME
        --robots FILE     check an existing robots.txt
    -a, --agent NAME      a crawler's product token; repeat for several
        --format FORMAT   text (default) or json

Examples:
    discgen check -f site.yaml --agent googlebot /private/x.html
    discgen check --robots public/robots.txt -a bingbot -a otherbot https://example.org/a
`

const lintUsage = `Usage: discgen lint [options] FILE...

Find problems in hand-written discovery files, chosen by name:

    security.txt          RFC 9116: required fields, https URIs, an RFC 3339
                          Expires that is neither past nor too far ahead,
                          language tags (codes S001-S004)
    index.txt, icons.txt, description.txt, feeds.txt, subdirectories.txt
                          the autodisc formats of seed 000 (codes A001-A011)
    any other name        robots.txt: unknown directives, rules outside any
                          group, malformed patterns, invalid agent names,
                          duplicate groups, shadowed and conflicting rules,
                          verdicts that depend on which reading a crawler
                          uses, and more (codes R001-R021)

Each finding has a stable code.

Options:
        --format FORMAT   text (default), json, or github
        --now TIME        the time security.txt's Expires is checked
                          against (as for build)

Exit status: 1 if any finding is an error.

Examples:
    discgen lint public/robots.txt
    discgen lint --format github public/.well-known/security.txt public/autodisc/*.txt
`

const resolveUsage = `Usage: discgen resolve -o DIR PATH

Read the autodisc tree built into DIR as a consumer would (subdirectories.txt
first) and say which authority governs the URL path PATH, then, for each
autodisc file, which authority defines it or that it is undefined.

Options:
    -o, --output DIR      the built tree (default public)
        --format FORMAT   text (default) or json

Example:
    discgen resolve -o public /~alice/blog/post.html
`

const schemaUsage = `Usage: discgen schema

Print the manifest's JSON Schema (draft 2020-12). Editors that read
yaml-language-server comments validate a manifest as it is typed.
`

const initUsage = `Usage: discgen init [-f site.yaml] [--force]

Write a commented starter manifest that validates as written. An existing
file is not overwritten without --force.

Options:
    -f, --file FILE       where to write (default site.yaml; - for stdout)
        --force           overwrite an existing file
`
