#!/usr/bin/env node
// mutate.js FILE KIND/NAME JSON-PATCH : applies a JSON 6902 patch (RFC
// 6902, as JSON text) to the object KIND/NAME of the multi-document YAML
// FILE, in place. test/e2e/99_k8s.sh breaks copies of the manifests with
// it, to see validate.js reject them (validate.js --jobs applies it,
// through mutate(), before a run).
"use strict";
const fs = require("fs");
const YAML = require("yaml");
const jsonpatch = require("fast-json-patch");

// mutate(FILE, TARGET, PATCH): throws what fails
function mutate(file, target, patch) {
	const [kind, name] = target.split("/");
	let hit = 0;
	const docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"), { version: "1.1" }).map((d) => {
		const o = d.toJS();
		if (o && o.kind === kind && o.metadata && o.metadata.name === name) {
			hit++;
			return jsonpatch.applyPatch(o, JSON.parse(patch), true, true).newDocument;
		}
		return o;
	});
	if (hit !== 1) throw new Error(`mutate.js: ${hit} objects ${target} in ${file}`);
	fs.writeFileSync(file, docs.map((o) => YAML.stringify(o, { version: "1.1" })).join("---\n"));
}
module.exports = { mutate };

if (require.main === module) {
	const [file, target, patch] = process.argv.slice(2);
	if (!patch) {
		process.stderr.write("usage: mutate.js FILE KIND/NAME JSON-PATCH\n");
		process.exit(2);
	}
	try {
		mutate(file, target, patch);
	} catch (e) {
		process.stderr.write(`${e.message.startsWith("mutate.js: ") ? e.message : e.stack}\n`);
		process.exit(1);
	}
}
