// Validates Kubernetes objects (a multi-document YAML on stdin) against the Kubernetes OpenAPI
// schemas compiled into kubernetes-models (an ES module, hence this script beside the jest test).
// Prints a JSON array of { kind, name, error }: empty when every object is valid and known.
import { parseAllDocuments } from 'yaml';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const problems = [];
for (const doc of parseAllDocuments(input)) {
  const obj = doc.toJS();
  if (!obj) continue;
  const where = { kind: obj.kind, name: obj.metadata?.name };
  const group = obj.apiVersion;
  let mod;
  try {
    mod = await import(`kubernetes-models/${group}`);
  } catch {
    problems.push({ ...where, error: `no schema for apiVersion ${group}` });
    continue;
  }
  const Model = mod[obj.kind];
  if (!Model) {
    problems.push({ ...where, error: `no schema for ${group} ${obj.kind}` });
    continue;
  }
  try {
    new Model(obj).validate();
  } catch (err) {
    problems.push({ ...where, error: String(err.message ?? err) });
  }
}
process.stdout.write(JSON.stringify(problems));
