// The bench runs the agent jar under the name its manifest puts on the boot class path, as users run it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { privateAgentJar } from '../lib/context.mjs';
import { ROOT } from '../lib/paths.mjs';

test('the private copy of the agent jar keeps the file name of the manifest\'s Boot-Class-Path', () => {
  const pom = readFileSync(join(ROOT, 'agent', 'pom.xml'), 'utf8');
  const bootClassPath = /<Boot-Class-Path>([^<]+)<\/Boot-Class-Path>/.exec(pom)?.[1];
  assert.equal(bootClassPath, 'heaplens-agent.jar');
  // A renamed copy (heaplens-agent-<sha>.jar, as before) made the JVM load the agent through the application class
  // loader: the program's class path jars were opened before the program started, outside its measured bytes.
  assert.equal(basename(privateAgentJar('0123456789ab')), bootClassPath);
  assert.notEqual(privateAgentJar('0123456789ab'), privateAgentJar('ba9876543210'));
});
