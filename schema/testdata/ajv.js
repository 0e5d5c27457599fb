// Validates manifests with ajv (strict mode, draft 2020-12, ajv-formats)
// against the schema named on the command line. Reads a JSON list of
// {name, instance} on stdin; writes a JSON object name -> list of error
// instance paths (empty when valid).
const Ajv2020 = require("ajv/dist/2020");
const addFormats = require("ajv-formats");
const fs = require("fs");

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(process.argv[2], "utf8")));
const out = {};
for (const c of JSON.parse(fs.readFileSync(0, "utf8"))) {
  out[c.name] = validate(c.instance) ? [] : validate.errors.map((e) => e.instancePath + (e.keyword === "propertyNames" || e.keyword === "additionalProperties" ? "/" + (e.params.propertyName || e.params.additionalProperty || "") : ""));
}
process.stdout.write(JSON.stringify(out));
