#!/usr/bin/env node
// validate.js — offline checks of the Kubernetes manifests of
// deploy/kubernetes (test/e2e/99_k8s.sh runs it).
//
//   node validate.js [--label L] [--component DIR]... [--extra FILE]...
//                    [--caps A,B,C] [--tsv] [--no-fields] [--dump-run DIR]
//                    KUSTOMIZATION-DIR
//   node validate.js --jobs FILE
//
// What kubectl apply -k would build, without kubectl or a cluster: the
// kustomization's resources, then the patches of each component (those it
// lists and those given with --component; JSON 6902 patches, applied with
// fast-json-patch, test operations included), plus the --extra files
// (secrets.example.yaml, which the kustomization leaves out). Any other
// kustomize feature is refused by name rather than ignored.
//
// Each object is then checked:
//  - schema: against the Kubernetes API's OpenAPI schemas (kubernetes-models,
//    generated from Kubernetes 1.27's) and prometheus-operator's CRD
//    schemas (@kubernetes-models/prometheus-operator): types, formats,
//    enums and required fields; a NetworkAttachmentDefinition against the
//    CRD's own schema (spec.config, a string) and its CNI JSON;
//  - fields: no field the schema does not have (the schemas allow them,
//    the API server's strict field validation does not): every object is
//    type-checked by the TypeScript compiler against the models' declared
//    types, whose excess-property check names the unknown field (the
//    slowest part, half a second: --no-fields leaves it out);
//  - flowgen's rules: hugepages, memory and CPU requests equal to limits
//    (CPUs whole), the hugepages emptyDir at /dev/hugepages, exactly the
//    capabilities of --caps (default IPC_LOCK,NET_ADMIN,NET_RAW) after
//    dropping ALL, not privileged, a seccomp profile that lets DPDK set
//    its NUMA memory policy; the API's certificate, key and token
//    files on Secret volumes whose Secrets and keys exist; every Secret
//    and ConfigMap reference resolving; the Service selecting the pods and
//    targeting the named API port; the ServiceMonitor selecting the
//    Service, scraping /metrics over HTTPS with the token Secret and the
//    certificate; the scrape annotations; the Multus networks and the
//    ports' interfaces; a platform config per tester.
//
// Prints one line per check, "PASS NAME" or "FAIL NAME: REASON" (with
// --tsv: PASS, NAME and REASON separated by tabs), and exits 1 if any
// failed (2 on a usage error). --dump-run DIR lays out the
// first tester's ConfigMap volumes under DIR (DIR + mountPath) and prints
// its container's command line and environment as JSON, paths moved
// under DIR and $(VAR) references expanded, for a run of the real
// binary.

"use strict";

const fs = require("fs");
const path = require("path");
const YAML = require("yaml");
const jsonpatch = require("fast-json-patch");

// The declaration files the TypeScript pass parses (TypeScript's lib and
// the models': some 230 files, 850 kB, two thirds of the pass's time),
// kept for the next run of the process (--jobs): each run makes a program
// of its own from them, as TypeScript's language service shares its
// documents between programs of the same options.
const parsed = new Map();

class UsageError extends Error {}

// validate(ARGV, PRINT): one run of the command line ARGV (without node
// and the script); PRINT takes each output line. Returns the exit status;
// a usage error throws a UsageError.
function validate(argv, print) {
	let label = "";
	const components = [];
	const extras = [];
	let caps = ["IPC_LOCK", "NET_ADMIN", "NET_RAW"];
	let dumpDir = null;
	let tsv = false;
	let fields = true;
	let root = null;
	let nfail = 0;

	function usage(msg) {
		throw new UsageError(msg);
	}

	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const val = () => {
			if (i + 1 >= argv.length) usage(`${a} needs a value`);
			return argv[++i];
		};
		if (a === "--label") label = val();
		else if (a === "--component") components.push(val());
		else if (a === "--extra") extras.push(val());
		else if (a === "--caps") caps = val().split(",").filter(Boolean);
		else if (a === "--dump-run") dumpDir = val();
		else if (a === "--tsv") tsv = true;
		else if (a === "--no-fields") fields = false;
		else if (a.startsWith("-")) usage(`unknown option ${a}`);
		else if (root === null) root = a;
		else usage(`one kustomization directory only (${a})`);
	}
	if (root === null) usage("no kustomization directory");

	const prefix = label ? `k8s ${label}: ` : "k8s: ";
	function pass(name) {
		print(tsv ? `PASS\t${prefix}${name}` : `PASS ${prefix}${name}`);
	}
	function fail(name, why) {
		nfail++;
		why = String(why).replace(/\s+/g, " ").slice(0, 400);
		print(tsv ? `FAIL\t${prefix}${name}\t${why}` : `FAIL ${prefix}${name}: ${why}`);
	}
	function check(name, ok, why) {
		if (ok) pass(name);
		else fail(name, why);
		return ok;
	}

	// --- loading -----------------------------------------------------------------

	const objects = []; // {obj, src}

	function rel(f) {
		const r = path.relative(process.cwd(), f);
		return r && !r.startsWith("..") ? r : f;
	}

	function loadDocs(file) {
		let text;
		try {
			text = fs.readFileSync(file, "utf8");
		} catch (e) {
			fail(`${rel(file)}: read`, e.message);
			return [];
		}
		// YAML 1.1, as kubectl reads it (0400 is octal there)
		const docs = YAML.parseAllDocuments(text, { prettyErrors: true, version: "1.1" });
		const out = [];
		docs.forEach((d, i) => {
			if (d.errors.length) {
				fail(`${rel(file)}: YAML document ${i + 1}`, d.errors[0].message);
				return;
			}
			const o = d.toJS({ maxAliasCount: 100 });
			if (o !== null && o !== undefined) out.push(o);
		});
		return out;
	}

	function addResources(dir, list, what) {
		for (const r of list || []) {
			const f = path.resolve(dir, r);
			if (!fs.existsSync(f) || fs.statSync(f).isDirectory()) {
				fail(`${what}: resource ${r}`, "not a file (directories, bases and URLs are not handled by this check)");
				continue;
			}
			for (const o of loadDocs(f)) objects.push({ obj: o, src: rel(f) });
		}
	}

	const KUSTOMIZATION_KEYS = ["apiVersion", "kind", "resources", "components", "patches"];

	function loadKustomization(dir, kind) {
		const f = ["kustomization.yaml", "kustomization.yml", "Kustomization"]
			.map((n) => path.join(dir, n))
			.find((p) => fs.existsSync(p));
		if (!f) {
			fail(`${rel(dir)}: kustomization`, "no kustomization.yaml");
			return null;
		}
		const docs = loadDocs(f);
		if (docs.length !== 1) {
			fail(`${rel(f)}`, "one YAML document expected");
			return null;
		}
		const k = docs[0];
		const extra = Object.keys(k).filter((key) => !KUSTOMIZATION_KEYS.includes(key));
		check(
			`${rel(f)}: a ${kind} this check handles`,
			k.kind === kind && extra.length === 0,
			k.kind !== kind ? `kind ${k.kind}, ${kind} expected` : `not handled by this check: ${extra.join(", ")}`,
		);
		return { file: f, dir, k };
	}

	function applyPatches(kz) {
		for (const [i, p] of (kz.k.patches || []).entries()) {
			const what = `${rel(kz.file)}: patch ${i + 1}`;
			let ops;
			if (typeof p.patch === "string") ops = YAML.parse(p.patch, { version: "1.1" });
			else if (typeof p.path === "string") ops = loadDocs(path.resolve(kz.dir, p.path))[0];
			if (!Array.isArray(ops)) {
				fail(what, "not a JSON 6902 patch (a list of operations); strategic merge patches are not handled by this check");
				continue;
			}
			const t = p.target || {};
			const extraKeys = Object.keys(t).filter((key) => !["kind", "name"].includes(key));
			if (!t.kind || !t.name || extraKeys.length) {
				fail(what, "its target must be {kind, name} alone");
				continue;
			}
			const hits = objects.filter((o) => o.obj.kind === t.kind && o.obj.metadata && o.obj.metadata.name === t.name);
			if (!check(`${what}: its target ${t.kind}/${t.name} exists`, hits.length === 1, `${hits.length} objects match`))
				continue;
			try {
				const r = jsonpatch.applyPatch(hits[0].obj, ops, true, true);
				hits[0].obj = r.newDocument;
				hits[0].src += ` + ${rel(kz.file)}`;
				pass(`${what}: applies (${ops.length} operations)`);
			} catch (e) {
				fail(`${what}: applies`, `${e.name}: ${e.message.split("\n")[0]}`);
			}
		}
	}

	const base = loadKustomization(path.resolve(root), "Kustomization");
	if (base) {
		addResources(base.dir, base.k.resources, rel(base.file));
		const comps = (base.k.components || []).map((c) => path.resolve(base.dir, c)).concat(components.map((c) => path.resolve(c)));
		applyPatches(base);
		for (const c of comps) {
			const kz = loadKustomization(c, "Component");
			if (!kz) continue;
			if (kz.k.components) fail(`${rel(kz.file)}`, "nested components are not handled by this check");
			addResources(kz.dir, kz.k.resources, rel(kz.file));
			applyPatches(kz);
		}
	}
	for (const f of extras) for (const o of loadDocs(path.resolve(f))) objects.push({ obj: o, src: rel(f) });

	function id(o) {
		return `${o.obj.kind}/${o.obj.metadata && o.obj.metadata.name}`;
	}
	function named(o) {
		return id(o);
	}
	const ofKind = (k) => objects.filter((o) => o.obj.kind === k);
	const byName = (k, n) => objects.find((o) => o.obj.kind === k && o.obj.metadata && o.obj.metadata.name === n);

	check("manifests: objects found", objects.length > 0, "none");
	{
		const seen = new Map();
		for (const o of objects) {
			const key = id(o);
			if (seen.has(key)) fail(`${named(o)}: unique`, `also in ${seen.get(key)}`);
			seen.set(key, o.src);
		}
	}

	// --- the schemas ---------------------------------------------------------------

	// apiVersion -> [module, module of the interface declaration (a kind is
	// appended)]
	function modelModule(apiVersion) {
		if (apiVersion === "monitoring.coreos.com/v1") return "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
		if (apiVersion === "v1") return "kubernetes-models/v1";
		if (/^[a-z0-9.]+\/v[0-9a-z]+$/.test(apiVersion) && !apiVersion.includes("cni.cncf.io"))
			return `kubernetes-models/${apiVersion}`;
		return null;
	}

	function schemaError(e) {
		if (e && Array.isArray(e.errors) && e.errors.length)
			return e.errors.map((x) => `${x.instancePath || "/"} ${x.message}`).join("; ");
		return e && e.message ? e.message : String(e);
	}

	// The NetworkAttachmentDefinition CRD (k8s.cni.cncf.io/v1) has spec.config,
	// a string: the CNI configuration's JSON.
	function checkNad(o) {
		const n = o.obj;
		const spec = n.spec || {};
		const extra = Object.keys(n).filter((k) => !["apiVersion", "kind", "metadata", "spec"].includes(k));
		const extraSpec = Object.keys(spec).filter((k) => k !== "config");
		if (!check(`schema: ${o.src}: ${named(o)}`, typeof spec.config === "string" && !extra.length && !extraSpec.length,
			typeof spec.config !== "string" ? "spec.config must be a string" : `unknown fields: ${extra.concat(extraSpec).join(", ")}`))
			return;
		let c;
		try {
			c = JSON.parse(spec.config);
		} catch (e) {
			fail(`${named(o)}: spec.config is JSON`, e.message);
			return;
		}
		check(`${named(o)}: a CNI config (cniVersion, type, name = the object's)`,
			typeof c.cniVersion === "string" && typeof c.type === "string" && c.name === n.metadata.name,
			`cniVersion ${c.cniVersion}, type ${c.type}, name ${c.name}`);
	}

	const typed = []; // {o, iface, module}
	for (const o of objects) {
		const av = o.obj.apiVersion;
		const kind = o.obj.kind;
		if (typeof av !== "string" || typeof kind !== "string") {
			fail(`schema: ${o.src}: an object`, "apiVersion and kind must be strings");
			continue;
		}
		if (av === "k8s.cni.cncf.io/v1" && kind === "NetworkAttachmentDefinition") {
			checkNad(o);
			continue;
		}
		const mod = modelModule(av);
		let cls;
		try {
			cls = mod && require(mod)[kind];
		} catch (e) {
			cls = undefined;
		}
		if (!cls) {
			fail(`schema: ${named(o)}`, `no schema for ${av} ${kind}`);
			continue;
		}
		try {
			new cls(o.obj).validate();
			pass(`schema: ${o.src}: ${named(o)}`);
		} catch (e) {
			fail(`schema: ${o.src}: ${named(o)}`, schemaError(e));
		}
		typed.push({ o, iface: `I${kind}`, module: `${mod}/${kind}` });
	}

	// Unknown fields: the TypeScript compiler's excess-property check of each
	// object, as a literal of its model's interface, in a file that exists in
	// memory only.
	function strictFields() {
		if (!typed.length) return;
		const ts = require("typescript");
		const here = path.join(__dirname, "manifests.check.ts");
		const lines = [];
		const lineOf = [];
		typed.forEach((t, i) => {
			lines.push(`import type { ${t.iface} as T${i} } from ${JSON.stringify(t.module)};`);
		});
		typed.forEach((t, i) => {
			lineOf[i] = lines.length;
			for (const l of JSON.stringify(t.o.obj, null, 1).split("\n")) lines.push(l);
			lines[lineOf[i]] = `export const o${i}: T${i} = ${lines[lineOf[i]]}`;
			lines[lines.length - 1] += ";";
		});
		const text = lines.join("\n") + "\n";
		const options = {
			noEmit: true,
			strict: true,
			skipLibCheck: true,
			types: [],
			lib: ["lib.es2020.d.ts"],
			module: ts.ModuleKind.CommonJS,
			moduleResolution: ts.ModuleResolutionKind.Node10 || ts.ModuleResolutionKind.NodeJs,
		};
		const host = ts.createCompilerHost(options);
		const getSourceFile = host.getSourceFile.bind(host);
		host.getSourceFile = (f, lang, onError, create) => {
			if (path.resolve(f) === here) return ts.createSourceFile(f, text, lang, true);
			// lang: the target, or the options it is parsed with (the same
			// for every run: the options above are)
			const key = `${path.resolve(f)}\0${JSON.stringify(lang)}`;
			let sf = parsed.get(key);
			if (!sf) {
				sf = getSourceFile(f, lang, onError, create);
				if (sf) parsed.set(key, sf);
			}
			return sf;
		};
		const fileExists = host.fileExists.bind(host);
		host.fileExists = (f) => path.resolve(f) === here || fileExists(f);
		const program = ts.createProgram([here], options, host);
		const diags = ts.getPreEmitDiagnostics(program);
		const byObj = typed.map(() => []);
		const other = [];
		for (const d of diags) {
			const msg = ts.flattenDiagnosticMessageText(d.messageText, " ");
			if (d.file && path.resolve(d.file.fileName) === here && d.start !== undefined) {
				const line = d.file.getLineAndCharacterOfPosition(d.start).line;
				let k = -1;
				for (let i = 0; i < lineOf.length; i++) if (lineOf[i] <= line) k = i;
				if (k >= 0) {
					byObj[k].push(msg);
					continue;
				}
			}
			other.push(msg);
		}
		check("fields: the models' type declarations load", other.length === 0, other.slice(0, 2).join("; "));
		typed.forEach((t, i) =>
			check(`fields: ${named(t.o)}: every field is the schema's`, byObj[i].length === 0,
				byObj[i].map((m) => m.replace(/ Did you mean .*$/, "").slice(0, 200)).join("; ")));
	}
	if (fields) strictFields();

	// --- flowgen's rules --------------------------------------------------------------

	const UNITS = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
	function quantity(q) {
		if (typeof q === "number") return q;
		const m = /^([0-9]+(?:\.[0-9]+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q));
		return m ? Number(m[1]) * UNITS[m[2] || ""] : NaN;
	}

	function secretKeys(s) {
		return Object.keys((s.obj.data || {})).concat(Object.keys(s.obj.stringData || {}));
	}

	// the Secret behind a file path of a container: [secret object, key] or a reason
	function secretFile(pod, c, file) {
		let best = null;
		for (const m of c.volumeMounts || [])
			if (file === m.mountPath || file.startsWith(m.mountPath.replace(/\/$/, "") + "/"))
				if (!best || m.mountPath.length > best.mountPath.length) best = m;
		if (!best) return `${file} is on no volume`;
		const v = (pod.volumes || []).find((x) => x.name === best.name);
		if (!v) return `volume ${best.name} is not defined`;
		if (!v.secret) return `${file} is on volume ${best.name}, not a Secret's`;
		let key = path.posix.relative(best.mountPath, file);
		if (best.subPath) key = best.subPath;
		if (v.secret.items) {
			const it = v.secret.items.find((x) => x.path === key);
			if (!it) return `no item of volume ${best.name} is ${key}`;
			key = it.key;
		}
		const s = byName("Secret", v.secret.secretName);
		if (!s) return `Secret ${v.secret.secretName} (volume ${best.name}) is not in the manifests`;
		if (!secretKeys(s).includes(key)) return `Secret ${v.secret.secretName} has no key ${key}`;
		return [s, key];
	}

	// the value of option OPT in a command line: --opt VALUE or --opt=VALUE
	function optVal(args, opt) {
		for (let i = 0; i < args.length; i++) {
			if (args[i] === opt) return args[i + 1];
			if (args[i].startsWith(opt + "=")) return args[i].slice(opt.length + 1);
		}
		return undefined;
	}

	function subset(a, b) {
		return Object.keys(a || {}).length > 0 && Object.entries(a).every(([k, v]) => b && b[k] === v);
	}

	const workloads = objects.filter((o) => ["StatefulSet", "Deployment", "DaemonSet"].includes(o.obj.kind));
	check("testers: a StatefulSet (or Deployment) runs them", workloads.length > 0, "no workload in the manifests");

	for (const w of workloads) {
		const W = named(w);
		const spec = w.obj.spec || {};
		const tpl = spec.template || {};
		const pod = tpl.spec || {};
		const labels = (tpl.metadata || {}).labels || {};
		const ann = (tpl.metadata || {}).annotations || {};
		check(`${W}: its selector selects its pods`, subset((spec.selector || {}).matchLabels, labels),
			`matchLabels ${JSON.stringify((spec.selector || {}).matchLabels)} vs labels ${JSON.stringify(labels)}`);

		// every Secret and ConfigMap the pod names exists
		for (const v of pod.volumes || []) {
			if (v.secret) check(`${W}: volume ${v.name}: Secret ${v.secret.secretName} is in the manifests`,
				!!byName("Secret", v.secret.secretName), "not found");
			if (v.configMap) check(`${W}: volume ${v.name}: ConfigMap ${v.configMap.name} is in the manifests`,
				!!byName("ConfigMap", v.configMap.name), "not found");
		}

		const containers = (pod.containers || []).concat(pod.initContainers || []);
		check(`${W}: has containers`, containers.length > 0, "none");
		for (const c of containers) {
			const C = `${W}: container ${c.name}`;
			for (const e of c.env || []) {
				const r = e.valueFrom && (e.valueFrom.secretKeyRef || e.valueFrom.configMapKeyRef);
				if (!r) continue;
				const k = e.valueFrom.secretKeyRef ? "Secret" : "ConfigMap";
				const o = byName(k, r.name);
				check(`${C}: env ${e.name}: ${k} ${r.name} key ${r.key} is in the manifests`,
					o && (k === "Secret" ? secretKeys(o) : Object.keys(o.obj.data || {})).includes(r.key), "not found");
			}
			for (const e of c.envFrom || []) {
				const r = e.secretRef || e.configMapRef;
				const k = e.secretRef ? "Secret" : "ConfigMap";
				check(`${C}: envFrom ${k} ${r.name} is in the manifests`, !!byName(k, r.name), "not found");
			}

			// resources: Guaranteed QoS, whole CPUs, hugepages
			const req = (c.resources || {}).requests || {};
			const lim = (c.resources || {}).limits || {};
			for (const r of ["cpu", "memory", "hugepages-2Mi"]) {
				const a = quantity(req[r]);
				const b = quantity(lim[r]);
				check(`${C}: ${r} requested, request = limit (${req[r]})`, req[r] !== undefined && lim[r] !== undefined && a === b,
					req[r] === undefined ? `no ${r} request` : lim[r] === undefined ? `no ${r} limit` : `request ${req[r]}, limit ${lim[r]}`);
			}
			check(`${C}: whole CPUs (the static CPU manager's exclusive ones)`, Number.isInteger(quantity(lim.cpu)) && quantity(lim.cpu) >= 1,
				`cpu limit ${lim.cpu}`);
			for (const r of Object.keys(req).concat(Object.keys(lim)))
				if (r.includes("/") && req[r] !== lim[r]) fail(`${C}: ${r} request = limit`, `request ${req[r]}, limit ${lim[r]}`);
			const hp = (c.volumeMounts || []).find((m) => m.mountPath === "/dev/hugepages");
			const hpv = hp && (pod.volumes || []).find((v) => v.name === hp.name);
			check(`${C}: /dev/hugepages is an emptyDir of medium HugePages-2Mi`,
				hpv && hpv.emptyDir && hpv.emptyDir.medium === "HugePages-2Mi",
				hp ? `volume ${hp.name}: ${JSON.stringify(hpv)}` : "nothing mounted at /dev/hugepages");

			// privileges
			const sc = c.securityContext || {};
			const cp = sc.capabilities || {};
			check(`${C}: not privileged, no privilege escalation`, sc.privileged === false && sc.allowPrivilegeEscalation === false,
				`privileged ${sc.privileged}, allowPrivilegeEscalation ${sc.allowPrivilegeEscalation}`);
			check(`${C}: capabilities: drop ALL`, JSON.stringify(cp.drop) === '["ALL"]', `drop ${JSON.stringify(cp.drop)}`);
			const added = (cp.add || []).slice().sort();
			check(`${C}: capabilities: adds exactly ${caps.join(", ")}`, JSON.stringify(added) === JSON.stringify(caps.slice().sort()),
				`adds ${added.join(", ") || "none"}`);
			// DPDK's hugepage allocation calls get_mempolicy and set_mempolicy,
			// which the runtimes' default seccomp profiles allow only with
			// SYS_NICE; left out, the kubelet's SeccompDefault may apply it
			const sec = (sc.seccompProfile || (pod.securityContext || {}).seccompProfile || {}).type;
			check(`${C}: seccomp lets DPDK set its NUMA memory policy (Unconfined, or RuntimeDefault with SYS_NICE)`,
				sec === "Unconfined" || (sec === "RuntimeDefault" && added.includes("SYS_NICE")),
				`seccompProfile ${sec || "not given"}, capabilities ${added.join(", ")}`);

			// flowgen's command line
			const cmd = (c.command || []).concat(c.args || []);
			const at = cmd.findIndex((a) => path.posix.basename(a) === "flowgen");
			if (!check(`${C}: runs flowgen`, at >= 0, `command ${JSON.stringify(cmd)}`)) continue;
			const fa = cmd.slice(at + 1);
			check(`${C}: flowgen serves the API and waits (no -x, -b or --check)`,
				!fa.some((a) => ["-x", "--exec", "-b", "--batch", "--check"].includes(a) || a.startsWith("--exec=")),
				`arguments ${fa.join(" ")}`);
			const api = optVal(fa, "--api");
			const m = /^(?:(.*):)?([0-9]+)$/.exec(api || "");
			const apiPort = m ? Number(m[2]) : NaN;
			check(`${C}: --api on every address of the pod`, m && m[1] !== undefined && !/^(127\.|localhost|\[::1\])/.test(m[1]),
				`--api ${api}`);
			const named_ = (c.ports || []).find((p) => p.name === "api");
			check(`${C}: the container port named api is --api's (${apiPort})`, named_ && named_.containerPort === apiPort,
				`ports ${JSON.stringify(c.ports)}`);
			const files = {};
			for (const opt of ["--api-cert", "--api-key", "--api-token-file"]) {
				const f = optVal(fa, opt);
				const r = f ? secretFile(pod, c, f) : `no ${opt}`;
				if (check(`${C}: ${opt} ${f} is a key of a Secret in the manifests`, Array.isArray(r), r)) files[opt] = r;
			}
			if (files["--api-cert"] && files["--api-key"]) {
				const [s, k] = files["--api-cert"];
				const [s2, k2] = files["--api-key"];
				check(`${C}: the certificate and key are a kubernetes.io/tls Secret's tls.crt and tls.key`,
					s === s2 && s.obj.type === "kubernetes.io/tls" && k === "tls.crt" && k2 === "tls.key",
					`${s.obj.metadata.name} (${s.obj.type}) ${k}, ${s2.obj.metadata.name} ${k2}`);
			}
			const nameArg = optVal(fa, "--name");
			const podName = (c.env || []).find((e) => e.name === "POD_NAME");
			check(`${C}: --name is the pod's name`, nameArg === "$(POD_NAME)" && podName && podName.valueFrom &&
				podName.valueFrom.fieldRef && podName.valueFrom.fieldRef.fieldPath === "metadata.name",
				`--name ${nameArg}`);

			// scrape annotations
			check(`${W}: annotations prometheus.io/scrape, port (${apiPort}), scheme https, path /metrics`,
				ann["prometheus.io/scrape"] === "true" && ann["prometheus.io/port"] === String(apiPort) &&
				ann["prometheus.io/scheme"] === "https" && ann["prometheus.io/path"] === "/metrics",
				JSON.stringify(Object.fromEntries(Object.entries(ann).filter(([k]) => k.startsWith("prometheus.io/")))));

			// the ports: Multus interfaces or the SR-IOV device plugin's VFs
			const env = Object.fromEntries((c.env || []).filter((e) => "value" in e).map((e) => [e.name, e.value]));
			let ifaces = null;
			const nets = ann["k8s.v1.cni.cncf.io/networks"];
			if (nets !== undefined) {
				let list;
				try {
					list = JSON.parse(nets);
				} catch (e) {
					list = null;
				}
				if (check(`${W}: k8s.v1.cni.cncf.io/networks is a JSON list`, Array.isArray(list), nets)) {
					ifaces = [];
					for (const n of list) {
						check(`${W}: network ${n.name} is a NetworkAttachmentDefinition in the manifests`,
							!!byName("NetworkAttachmentDefinition", n.name), "not found");
						if (n.interface) ifaces.push(n.interface);
					}
				}
			}
			for (const p of ["FLOWGEN_PORT0", "FLOWGEN_PORT1"]) {
				const v = env[p];
				if (!check(`${C}: ${p} is set`, typeof v === "string" && v !== "", "no value")) continue;
				const iface = /(?:^|,)iface=([^,]+)/.exec(v);
				if (iface)
					check(`${C}: ${p}: interface ${iface[1]} is one the pod gets (Multus)`, ifaces && ifaces.includes(iface[1]),
						`the annotation names ${ifaces ? ifaces.join(", ") : "none"}`);
				else if (v.startsWith("pci:")) {
					const res = Object.keys(lim).find((r) => r.includes("/") && "PCIDEVICE_" + r.toUpperCase().replace(/[./]/g, "_") === v.slice(4));
					check(`${C}: ${p}: ${v.slice(4)} is the device plugin's variable of a resource requested`, !!res,
						`no resource of ${Object.keys(lim).join(", ")}`);
				}
			}

			// a platform config per tester, beside start.sh, and profiles
			const script = cmd.find((a) => a.endsWith("/start.sh"));
			if (script && w.obj.kind === "StatefulSet") {
				const mnt = (c.volumeMounts || []).find((mm) => path.posix.dirname(script) === mm.mountPath);
				const v = mnt && (pod.volumes || []).find((x) => x.name === mnt.name);
				const cm = v && v.configMap && byName("ConfigMap", v.configMap.name);
				const data = cm ? cm.obj.data || {} : {};
				check(`${C}: ${script} is in a ConfigMap`, "start.sh" in data, "not found");
				const n = spec.replicas === undefined ? 1 : spec.replicas;
				const missing = [];
				for (let k = 0; k < n; k++) if (!(`${w.obj.metadata.name}-${k}.yaml` in data)) missing.push(`${w.obj.metadata.name}-${k}.yaml`);
				check(`${C}: a platform config for each of the ${n} testers`, missing.length === 0, `missing: ${missing.join(", ")}`);
				const pm = (c.volumeMounts || []).find((mm) => mm.mountPath.endsWith("/profiles"));
				const pv = pm && (pod.volumes || []).find((x) => x.name === pm.name);
				const pc = pv && pv.configMap && byName("ConfigMap", pv.configMap.name);
				const pmissing = [];
				for (let k = 0; k < n; k++)
					if (!pc || !Object.keys(pc.obj.data || {}).some((key) => key.startsWith(`${w.obj.metadata.name}-${k}-`)))
						pmissing.push(`${w.obj.metadata.name}-${k}`);
				check(`${C}: profiles for each of the ${n} testers`, pmissing.length === 0, `none for ${pmissing.join(", ")}`);
			}

			// Services and ServiceMonitors of these pods
			const svcs = ofKind("Service").filter((s) => subset((s.obj.spec || {}).selector, labels));
			if (!check(`${W}: a Service selects its pods`, svcs.length > 0, `none of ${ofKind("Service").map(id).join(", ")}`)) continue;
			if (w.obj.kind === "StatefulSet") {
				const gov = byName("Service", spec.serviceName);
				check(`${W}: its serviceName ${spec.serviceName} is a headless Service selecting it`,
					gov && svcs.includes(gov) && gov.obj.spec.clusterIP === "None", "not found, or not headless");
			}
			for (const s of svcs) {
				const S = named(s);
				const sp = (s.obj.spec.ports || []).find((p) => p.targetPort === "api");
				check(`${S}: a port named api targets the container port named api`, sp && sp.name === "api" && named_,
					JSON.stringify(s.obj.spec.ports));
				const mons = ofKind("ServiceMonitor").filter((sm) => subset(((sm.obj.spec || {}).selector || {}).matchLabels, s.obj.metadata.labels));
				if (!check(`${S}: a ServiceMonitor selects it`, mons.length > 0,
					`labels ${JSON.stringify(s.obj.metadata.labels)}; ServiceMonitors: ${ofKind("ServiceMonitor").map(id).join(", ") || "none"}`))
					continue;
				for (const sm of mons) {
					const M = named(sm);
					const sel = sm.obj.spec.selector || {};
					check(`${M}: selects by labels only, in its own namespace`, !sel.matchExpressions && !sm.obj.spec.namespaceSelector,
						"matchExpressions or namespaceSelector");
					for (const ep of sm.obj.spec.endpoints || []) {
						check(`${M}: endpoint ${ep.port}: the Service's port, HTTPS, /metrics`,
							sp && ep.port === sp.name && ep.scheme === "https" && ep.path === "/metrics",
							`port ${ep.port}, scheme ${ep.scheme}, path ${ep.path}`);
						const cred = (ep.authorization && ep.authorization.credentials) || ep.bearerTokenSecret;
						const tok = files["--api-token-file"];
						check(`${M}: endpoint ${ep.port}: the bearer token is the API's token Secret`,
							cred && tok && cred.name === tok[0].obj.metadata.name && cred.key === tok[1] &&
							(!ep.authorization || (ep.authorization.type || "Bearer") === "Bearer"),
							`credentials ${JSON.stringify(cred)}`);
						const ca = ((ep.tlsConfig || {}).ca || {}).secret;
						const cert = files["--api-cert"];
						check(`${M}: endpoint ${ep.port}: trusts the API's certificate Secret`,
							ca && cert && ca.name === cert[0].obj.metadata.name && ca.key === cert[1] && !(ep.tlsConfig || {}).insecureSkipVerify,
							`tlsConfig ${JSON.stringify(ep.tlsConfig)}`);
						check(`${M}: endpoint ${ep.port}: honorLabels keeps flowgen's instance label`, ep.honorLabels === true,
							`honorLabels ${ep.honorLabels}`);
					}
				}
			}
		}
	}

	// --- a run of the real binary -------------------------------------------------------

	function dumpRun(dir) {
		const w = workloads.find((x) => x.obj.kind === "StatefulSet");
		if (!w) return fail("dump-run", "no StatefulSet");
		const pod = w.obj.spec.template.spec;
		const c = pod.containers[0];
		const podName = `${w.obj.metadata.name}-0`;
		const mounts = [];
		for (const m of c.volumeMounts || []) {
			const v = (pod.volumes || []).find((x) => x.name === m.name);
			const to = path.join(dir, m.mountPath);
			fs.mkdirSync(to, { recursive: true });
			const cm = v && v.configMap && byName("ConfigMap", v.configMap.name);
			if (cm) for (const [k, val] of Object.entries(cm.obj.data || {})) fs.writeFileSync(path.join(to, k), val);
			mounts.push({ mountPath: m.mountPath, dir: to, secret: v && v.secret ? v.secret.secretName : null });
		}
		const env = {};
		for (const e of c.env || []) {
			if ("value" in e) env[e.name] = e.value;
			else if (e.valueFrom && e.valueFrom.fieldRef && e.valueFrom.fieldRef.fieldPath === "metadata.name") env[e.name] = podName;
			else if (e.valueFrom && e.valueFrom.resourceFieldRef)
				env[e.name] = String(Math.ceil(quantity(c.resources.limits[e.valueFrom.resourceFieldRef.resource.replace(/^limits\./, "")])));
		}
		const move = (a) => {
			for (const m of mounts.slice().sort((x, y) => y.mountPath.length - x.mountPath.length))
				if (a === m.mountPath || a.startsWith(m.mountPath + "/")) return m.dir + a.slice(m.mountPath.length);
			return a;
		};
		const expand = (a) => a.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, v) => (v in env ? env[v] : all));
		const cmd = (c.command || []).concat(c.args || []).map((a) => move(expand(a)));
		print(JSON.stringify({ pod: podName, argv: cmd, env, mounts }));
	}
	if (dumpDir) dumpRun(path.resolve(dumpDir));
	return nfail ? 1 : 0;
}

// --jobs FILE: the runs FILE lists, one after the other in this process
// (node, the models and TypeScript started and read once: test/e2e/99_k8s.sh
// runs its checks in two such processes, one per CPU, rather than one
// process per run). FILE holds jobs, each a sequence of NUL-terminated
// fields ended by an empty one:
//   OUT ERR RC MUTATE-FILE MUTATE-TARGET MUTATE-PATCH ARG...
// the run's output lines go to OUT, its usage error or exception to ERR
// (which may be OUT), its exit status to RC. With a MUTATE-FILE, mutate.js's
// patch is applied first (mutate.js FILE TARGET PATCH); if that fails, its
// error goes to OUT and RC reads "mutate".
function runJobs(file) {
	const f = fs.readFileSync(file, "utf8").split("\0");
	let i = 0;
	while (i + 6 < f.length) {
		const [out, err, rc, mfile, mtarget, mpatch] = f.slice(i, i + 6);
		let end = i + 6;
		while (end < f.length && f[end] !== "") end++;
		const args = f.slice(i + 6, end);
		i = end + 1;
		if (mfile) {
			try {
				require("./mutate.js").mutate(mfile, mtarget, mpatch);
			} catch (e) {
				fs.writeFileSync(out, `${e.message.startsWith("mutate.js: ") ? e.message : e.stack}\n`);
				fs.writeFileSync(rc, "mutate\n");
				continue;
			}
		}
		const lines = [];
		let status;
		let why = "";
		try {
			status = validate(args, (l) => lines.push(l));
		} catch (e) {
			if (e instanceof UsageError) {
				why = `validate.js: ${e.message}\n`;
				status = 2;
			} else {
				why = `${e.stack}\n`;
				status = 1;
			}
		}
		fs.writeFileSync(out, lines.map((l) => `${l}\n`).join(""));
		if (why) fs.appendFileSync(err, why);
		else if (err !== out) fs.writeFileSync(err, "");
		fs.writeFileSync(rc, `${status}\n`);
	}
}

if (process.argv[2] === "--jobs" && process.argv.length === 4) {
	runJobs(process.argv[3]);
} else {
	try {
		process.exit(validate(process.argv.slice(2), (l) => console.log(l)));
	} catch (e) {
		if (!(e instanceof UsageError)) throw e;
		process.stderr.write(`validate.js: ${e.message}\n`);
		process.exit(2);
	}
}
