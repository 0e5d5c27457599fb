// Answers robots.txt queries with three npm parsers: robots-parser,
// robots-txt-guard (fed by robots-txt-parse, its documented input) and
// robots-txt-parser. Input: the JSON file named by argv[2],
// {"files": [TEXT...], "queries": [{"file": N, "agent": NAME, "url": URL}...]}.
// Output: {"PARSER": [true|false|null, ...], ...}, one verdict per query
// (null: the parser failed on it). Modules come from NODE_PATH.
'use strict';
const fs = require('fs');
const { Readable } = require('stream');
const input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = {};

async function main() {
  try {
    const robotsParser = require('robots-parser');
    const parsed = input.files.map((f) => robotsParser('http://example.com/robots.txt', f));
    out['robots-parser'] = input.queries.map((q) => {
      const v = parsed[q.file].isAllowed(q.url, q.agent);
      return v === undefined ? null : v;
    });
  } catch (e) { process.stderr.write('robots-parser: ' + e.message + '\n'); }

  try {
    const parse = require('robots-txt-parse');
    const guard = require('robots-txt-guard');
    const guards = [];
    for (const f of input.files) {
      guards.push(guard(await parse(Readable.from([f]))));
    }
    out['robots-txt-guard'] = input.queries.map((q) => {
      const u = new URL(q.url);
      return guards[q.file].isAllowed(q.agent, u.pathname + u.search);
    });
  } catch (e) { process.stderr.write('robots-txt-guard: ' + e.message + '\n'); }

  try {
    const make = require('robots-txt-parser');
    out['robots-txt-parser'] = input.queries.map((q) => {
      const r = make({ userAgent: q.agent, allowOnNeutral: true });
      r.parseRobots('http://example.com', input.files[q.file]);
      return r.canCrawlSync(q.url);
    });
  } catch (e) { process.stderr.write('robots-txt-parser: ' + e.message + '\n'); }

  process.stdout.write(JSON.stringify(out));
}
main();
