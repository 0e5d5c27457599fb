package main

const usage = `discgen publishes web discovery files from one YAML manifest.

Usage:
    discgen build    [-f site.yaml] [-o public] [--env NAME] [--check | --dry-run] [--now TIME]
                     [--state DIR] [--replace] [--robots-symlink]
                     [--server KINDS] [--server-dir DIR]
                     [--tenant FILE...] [--shard K/N | --shard-index I/N] [--jobs N]
                     [--tenant-owner [--provision | --unprovision]]
                     [--format text|json|github] [--progress bar|lines|auto]
    discgen validate [-f site.yaml] [--env NAME] [--format text|json|github] [--now TIME]
                     [-o DIR]
    discgen check    (-f site.yaml [--env NAME] | --robots FILE [--tdmrep FILE])
                     --agent NAME... [--format text|json] URL...
    discgen lint     [--format text|json|github] [--now TIME] [--key PUBKEY] [--type KIND] FILE...
    discgen resolve  [-f site.yaml] [-o public] [--format text|json] PATH
    discgen presets  [--format text|json] [--now TIME] [PRESET...]
    discgen presets  --import FILE --commit HASH --date DAY [-o FILE]
    discgen presets  --import-ranges LIST=FILE --date DAY [--service NAME] [--copy TEXT] [-o FILE]
    discgen schema   [-o FILE]
    discgen init     [-f site.yaml] [--force] [--local-schema]
    discgen import   [-o site.yaml [--force]] [--site] [--site-url URL] [--now TIME] (FILE | DIR | URL)
                     [--connect-to H1:P1:H2:P2...] [--resolve H:P:ADDR...]
    discgen verify   [-f site.yaml] [--env NAME] [--tenants] [--now TIME] [--format text|json|github]
                     [--timeout D] [--jobs N] [--allow-redirect ORIGIN...] [URL]
                     [--connect-to H1:P1:H2:P2...] [--resolve H:P:ADDR...]
    discgen report   [-f site.yaml] [--env NAME] [--now TIME] -o report.html [--url URL...]
    discgen completion (bash | zsh | fish)
    discgen man
    discgen version

Commands:
    build       Validate the manifest and write robots.txt, autodisc/, data.txt
                and .well-known/ into the output directory, and each tenant's
                autodisc/ into its own directory.
    validate    Check the manifest (JSON Schema, then semantic rules) and
                report every error and warning; write nothing.
    check       Say whether robots.txt allows each agent to fetch each URL,
                under RFC 9309 and under the 1996 draft.
    lint        Find problems in existing robots.txt, security.txt,
                autodisc, ads.txt and other well-known files.
    resolve     Say which autodisc authority of a built tree governs a URL
                path, and where each autodisc file's value comes from.
    presets     List the crawler catalogue's presets: each agent, its
                operator, source and date.
    schema      Print the manifest's JSON Schema.
    init        Write a commented starter manifest.
    import      Write a manifest from an existing robots.txt, a built tree
                (robots.txt, autodisc/, data.txt, .well-known/) or a live
                site, saying what could not be carried over.
    verify      Fetch every file the build produces from the site (or a
                staging origin) and check status, headers, bytes and expiry.
    report      Write one self-contained HTML page: who may fetch what and
                why, the delegation tree, the files and the warnings.
    completion  Print a shell completion script for bash, zsh or fish.
    man         Print the manual page, discgen(1), in roff.
    version     Print discgen's version.

Run 'discgen COMMAND -h' for a command's options and examples.

Exit status: 0 success; 1 invalid manifest or checked file, failed
expectation, stale output (--check), or a deployed file verify found wrong;
2 usage error.

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

{{options}}

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

{{options}}

Examples:
    discgen validate -f site.yaml
    discgen validate -f site.yaml -o public   # after the site generator ran
    discgen validate --format github   # in a GitHub Actions step
`

const checkUsage = `Usage: discgen check (-f site.yaml | --robots FILE [--tdmrep FILE]) --agent NAME... URL...

Print, for each agent and URL, whether robots.txt allows the fetch: the
verdict word (ALLOWED or DISALLOWED) first, then the agent, the URL and the
deciding rule with its line. The RFC 9309 reading (Google's) decides; where
the 1996 draft's reading differs, the line says so. With -f, the robots.txt
checked is the one the manifest builds.

Where the agent may fetch the URL and preference lines apply to it, an
indented "usage" line follows: the preferences it reads there (Content-Usage,
longest matching path, and Content-Signal together; a "no" in either wins)
and the lines they come from. Where it may not fetch, no preference applies.

Some operators document readings beyond RFC 9309's. Where a documented
fallback changes the group (Googlebot-Image, -News and -Video obey the
Googlebot group where no group names them; Applebot too), the verdict line
stays RFC 9309's, for the token as written, and an indented line gives the
verdict the operator's crawler applies, the fallback and its source. A
control token (Google-Extended, Applebot-Extended) never fetches: its line
starts CONTROL and says whether its group allows use.

Indented "license" and "tdm" lines give the RSL licence and the TDMRep
reservation at the URL and where each comes from: with -f, robots.txt,
tdmrep.json and the headers --server writes; with --robots, its License
line, and with --tdmrep, a hand-written tdmrep.json (what a reader drops
of it is warned at its line and column).

{{options}}

Examples:
    discgen check -f site.yaml --agent googlebot /private/x.html
    discgen check --robots public/robots.txt -a bingbot -a otherbot https://example.org/a
    discgen check --robots robots.txt --tdmrep .well-known/tdmrep.json -a GPTBot /data/x.csv
`

const lintUsage = `Usage: discgen lint [options] FILE...

Find problems in hand-written discovery files:

    security.txt          RFC 9116: required fields, https URIs, an RFC 3339
                          Expires that is neither past nor too far ahead,
                          language tags, the OpenPGP signature when --key is
                          given, fields of IANA's registry given once and
                          Bug-Bounty True or False (codes S001-S006)
    index.txt, icons.txt, description.txt, feeds.txt, subdirectories.txt
                          the autodisc formats of seed 000 (codes A001-A011)
    robots.txt            unknown directives, rules outside any group,
                          malformed patterns, invalid agent names, duplicate
                          groups, shadowed and conflicting rules, verdicts
                          that depend on which reading a crawler uses, usage
                          preference lines (Content-Usage, Content-Signal)
                          outside any group, hidden from named groups,
                          unknown or repeated, and more (codes R001-R037);
                          RSL License lines: not an absolute URL, more than
                          one, inside a group (codes L001-L003)
    tdmrep.json           W3C TDMRep (final report 2024-05-10): an array of
                          rules, reservations of 1 or 0, policies that are
                          URLs, locations given twice or hidden by a
                          shorter one before them (code T001)
    mcp                   the MCP server catalogue (/.well-known/mcp/
                          catalog.json) by shape, as a build checks it;
                          given with --type mcp
    ads.txt, app-ads.txt, apple-app-site-association, assetlinks.json,
    oauth-protected-resource, oauth-authorization-server, gpc.json,
    traffic-advice, atproto-did, http-message-signatures-directory,
    agent-card.json
                          the checks a build makes of the same file: ads.txt
                          and app-ads.txt line by line (IAB Tech Lab ads.txt
                          1.1), the JSON files by shape (an A2A agent card
                          against the schema of the version it declares),
                          atproto-did as a DID alone

An autodisc file, tdmrep.json and each file of the last row is known by
its name (also with .json or .txt added, as a saved copy often has it:
apple-app-site-association.json). Any other file is linted by its
content, whatever its name: an OpenPGP signed message, or more RFC 9116
fields (Contact, Expires, ...) than robots.txt lines (User-agent, Allow,
Disallow, Sitemap, ...), is a security.txt; more robots.txt lines, a
robots.txt; a tie goes by the name (security.txt, else robots.txt). A file
named robots.txt or security.txt that reads as the other is warned of.
--type chooses for every file given. Each finding has a stable code.

A robots.txt is checked up to its 100,000th line that holds a field or
text (R037, an error, names the first line past it), and 1,000 findings
of a code are listed, then their count. Files are read up to 32 MiB; one
the host's memory limits (RLIMIT_AS, the cgroup's memory.max) leave no
room for is refused in one line naming the limit.

{{options}}

Exit status: 1 if any finding is an error.

Examples:
    discgen lint public/robots.txt
    discgen lint --format github public/.well-known/security.txt public/autodisc/*.txt
    discgen lint --key security-pub.asc public/.well-known/security.txt
    discgen lint --key security-pub.asc sec.txt      # a signed security.txt, by content
    discgen lint --type robots.txt staging-rules     # whatever it holds
    discgen lint ads.txt app-ads.txt .well-known/assetlinks.json
`

const resolveUsage = `Usage: discgen resolve [-f site.yaml] -o DIR PATH

Read the autodisc tree built into DIR as a consumer would (subdirectories.txt
first) and say which authority governs the URL path PATH, then, for each
autodisc file, which authority defines it or that it is undefined. With -f,
read each tenant space where the site manifest's tenants glob finds its
directory (/~alice/ from /home/alice/public_html), as the web server serves
it, rather than from DIR.

{{options}}

Examples:
    discgen resolve -o public /projects/a/b.html
    discgen resolve -f /etc/discgen/site.yaml -o /srv/www/public /~alice/blog/post.html
`

const presetsUsage = `Usage: discgen presets [--format text|json] [--now TIME] [PRESET...]
       discgen presets --import FILE --commit HASH --date DAY [-o FILE]
       discgen presets --import-ranges LIST=FILE --date DAY [--copy TEXT] [--service NAME] [-o FILE]

List the presets of discgen's crawler catalogue (all, or those named) and
each agent's token, operator, source and the day it was checked against
that source ("not checked" when nobody read it). A group
of the manifest adds a preset's agents with presets: [NAME], and leaves
some out with except_agents: [TOKEN...]. The catalogue is data shipped with
discgen; when it is more than 180 days older than --now (default: the
clock), presets and build warn. presets also warns of the search crawler
list recorded more than 180 days before --now, and of each address range
list read more than 90 days before it (a build warns of those its
verified groups use).

Presets:
    ai-training     crawlers that collect content to train AI models
    ai-search       crawlers that index content for AI search and answers
    ai-user         fetchers a person triggers (assistants, agents, coding tools)
    scrapers        AI data providers and scrapers, and undocumented AI crawlers
    search-engines  search engines' crawlers (Googlebot, bingbot, Applebot, ...)
    seo             link-index and SEO crawlers (not AI)

With --import, read a newer robots.json of the ai.robots.txt list (offline,
from a file) and print what it changes in the catalogue discgen was built
with: agents added (with the purpose read from the list's function text, to
review), removed (agents taken from the list that it no longer holds) and
changed (an operator the list now names differently). Agents documented by
their operators and the tokens the catalogue leaves out stay as they are.
With -o, also write the refreshed catalogue to FILE; the catalogue is
embedded in discgen, so a maintainer writes it over crawlers/catalogue.json
in the source tree, updates crawlers/NOTICE.md and builds again.

With --import-ranges, read a downloaded list of a crawler operator's
addresses (Google-style JSON: creationTime and prefixes, as googlebot.json
and draft-illyes-webbotauth-jafar have them) for LIST, a list of the range
catalogue crawlers/ranges.json (googlebot, openai-gptbot, ...; cdn lists
too), and print the prefixes added and removed. A file whose prefixes name
the services they are for (JAFAR's "services") gives only those of
--service NAME; one naming several services needs it. It reads only the
file and never fetches. With -o, also write the refreshed range catalogue (the
maintainer writes it over crawlers/ranges.json and updates NOTICE.md).

{{options}}

Examples:
    discgen presets ai-training
    discgen presets --format json | jq -r '.presets[].agents[].name'
    discgen presets --import robots.json --commit 1a2b3c4 --date 2026-12-01 -o crawlers/catalogue.json
    discgen presets --import-ranges googlebot=googlebot.json --date 2026-12-01 -o crawlers/ranges.json
`

const schemaUsage = `Usage: discgen schema [-o FILE]

Print the manifest's JSON Schema (draft 2020-12), or write it to FILE.
Editors that read yaml-language-server comments (VS Code's YAML extension,
Neovim, Helix, JetBrains) validate and complete a manifest as it is typed.
discgen init writes the comment naming the schema's published URL, the
repository's schema/site.schema.json at the v1 tag:

    # yaml-language-server: $schema=https://raw.githubusercontent.com/discgen/discgen/v1/schema/site.schema.json

Offline, write a copy beside the manifest and name it relatively:

    discgen schema -o site.schema.json
    # yaml-language-server: $schema=./site.schema.json

{{options}}
`

const initUsage = `Usage: discgen init [-f site.yaml] [--force] [--local-schema]

Write a commented starter manifest that validates as written. An existing
file is not overwritten without --force. Its first line names the schema
for editors (see discgen schema -h).

{{options}}
`

const importUsage = `Usage: discgen import [options] (FILE | DIR | URL)

Write a manifest from what a site already publishes:

    FILE    a robots.txt: its groups, Sitemap, Host and Mobile-agent-server
            lines. The manifest's robots.txt gives the same RFC 9309
            verdicts (as Google reads the file) for every agent the file
            names and for all others.
    DIR     a built tree: robots.txt, autodisc/ and the delegatees its
            subdirectories.txt leads to, data.txt (either format) and
            .well-known/ (security.txt and other files). Building the
            manifest gives the same bytes where the tree was discgen's.
    URL     a live site: its robots.txt, or with --site also autodisc/
            (following subdirectories.txt), data.txt, security.txt and
            common well-known files (gpc.json, nodeinfo, host-meta, ...),
            fetched from the URL's origin.

What cannot be carried over (comments, unknown lines, rules whose meaning
depends on the reader, User-agent values with more than a name, a
signature) is kept as YAML comments or group extensions where it can be,
and listed as warnings at its line. The manifest is validated; its errors
exit 1 after it is written.

{{options}}

Examples:
    discgen import public/robots.txt -o site.yaml
    discgen import public -o site.yaml
    discgen import --site https://www.example.org/ -o site.yaml
    discgen import --site https://www.example.org/ --resolve www.example.org:443:203.0.113.7
`

const verifyUsage = `Usage: discgen verify [options] [URL]

Build the manifest in memory, then fetch every file the build produces from
the site (site.url, or URL: a staging origin such as http://localhost:8080/)
and check each one:

    status        200, after at most 5 redirects, within --timeout;
                  a redirect is followed only within the origin checked
                  (scheme, host and port) or to an --allow-redirect
                  origin: one elsewhere is a failure, not followed, so
                  that a site cannot make this machine fetch other URLs
    media type    the Content-Type --server configures: text/plain;
                  charset=utf-8 for robots.txt, data.txt, autodisc files and
                  .txt well-known files; application/json for JSON ones
    text          valid UTF-8
    bytes         equal to the build's
    robots.txt    at most 500 KiB (RFC 9309)
    security.txt  served over https (a note only for a staging URL) and not
                  past its Expires at --now
    sitemaps      each one robots.txt names, on the site's host, fetched at
                  its path: status 200, a sitemap or an index that lists
                  no index (its sitemaps fetched too, at most 100), within
                  the sitemaps.org limits (50,000 URLs, 50 MB uncompressed);
                  a duplicate line or another host is a note

Files are fetched a few at a time. The table goes to stdout; exit status 1
names every file that fails and why. A site that shares its address with
others (name-based virtual hosts, a server not yet in DNS) is checked with
--connect-to or --resolve, as with curl: the connection goes to the address
given while the requests keep the site's host name, in the Host header and
in TLS, whose certificate is checked for that name.

{{options}}

Examples:
    discgen verify -f site.yaml
    discgen verify -f site.yaml --env staging http://localhost:8080/
    discgen verify -f site.yaml --connect-to www.example.org:443:203.0.113.7:443
`

const reportUsage = `Usage: discgen report [options] -o report.html

Build the manifest in memory (tenants included) and write one self-contained
HTML page about it: no scripts, nothing loaded from elsewhere, readable
offline and printable. It shows

    verdicts      a matrix of URLs by agents: every agent the manifest
                  names, the * group and an agent it does not name; URLs
                  from expect, the rule paths, the sitemaps and --url. Each
                  cell gives the RFC 9309 verdict with the deciding rule and
                  its line in the built robots.txt, and marks where the 1996
                  draft's reading differs and what expect asserts
    delegations   the site, each delegation with what it grants (only,
                  except), inline delegatees and the tenants found
    files         every file the build produces, with its size
    warnings      every error and warning of the build

{{options}}

Example:
    discgen report -f site.yaml -o report.html --url /private/report.pdf
`

const completionUsage = `Usage: discgen completion SHELL

Print a completion script for SHELL (bash, zsh or fish): commands, each
command's flags, preset names, and files for the rest.

Examples:
    source <(discgen completion bash)          # in ~/.bashrc
    discgen completion bash > ~/.local/share/bash-completion/completions/discgen
    source <(discgen completion zsh)           # in ~/.zshrc
    discgen completion fish > ~/.config/fish/completions/discgen.fish
`
