#!/usr/bin/env node
// The bench's smoke program for the e2e tests (bench/workloads/smoke.mjs: H2 RunScript on a generated script at
// scale 0.03), prepared with the bench's own helpers: libh2-java installed when missing (bench/prepare/apt.mjs),
// the script generated into DIR, and the JFR settings file the bench records with (bench/prepare/jfc.mjs).
// usage: node smoke-program.mjs DIR JDK_HOME JDK_NAME   → prints {"cp":[…],"main":…,"args":[…],"jfc":…}
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePackages } from '../../../bench/prepare/apt.mjs';
import { generateSql } from '../../../bench/prepare/gen-sql.mjs';
import { allocJfc } from '../../../bench/prepare/jfc.mjs';
import { jars } from '../../../bench/workloads/common.mjs';
import smoke from '../../../bench/workloads/smoke.mjs';

const [dir, jdkHome, jdk] = process.argv.slice(2);
ensurePackages(smoke.packages);
mkdirSync(dir, { recursive: true });
const script = join(dir, 'smoke.sql');
writeFileSync(script, generateSql(0.03, 7));
process.stdout.write(JSON.stringify({
  cp: jars('h2'), main: 'org.h2.tools.RunScript', args: ['-url', 'jdbc:h2:mem:smoke', '-script', script], jfc: allocJfc(jdkHome, jdk),
}) + '\n');
