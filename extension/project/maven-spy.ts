// The class path as Maven itself resolves it. A tiny Maven core extension (loaded with -Dmaven.ext.class.path)
// writes each project's runtime and test class paths when its build ends. It needs no plugin (the dependency
// plugin's own dependencies are often not in an offline repository), so it works wherever the project builds.
// It is compiled once per Maven installation with the user's JDK, against that Maven's own jars. No `vscode` import.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { execTool } from './exec';
import { ProjectError } from './errors';

export const SPY_CLASS = 'io.heaplens.maven.HeapLensClasspathSpy';
/** the user property naming the file the spy appends its JSON lines to */
export const SPY_OUT_PROPERTY = 'heaplens.classpathOut';

export const SPY_SOURCE = `package io.heaplens.maven;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.inject.Named;
import javax.inject.Singleton;
import org.apache.maven.eventspy.AbstractEventSpy;
import org.apache.maven.execution.ExecutionEvent;
import org.apache.maven.project.MavenProject;

@Named("heaplens-classpath")
@Singleton
public class HeapLensClasspathSpy extends AbstractEventSpy {
  @Override
  public void onEvent(Object event) throws Exception {
    if (!(event instanceof ExecutionEvent)) return;
    ExecutionEvent e = (ExecutionEvent) event;
    if (e.getType() != ExecutionEvent.Type.ProjectSucceeded) return;
    String out = e.getSession().getUserProperties().getProperty("${SPY_OUT_PROPERTY}");
    if (out == null) return;
    MavenProject p = e.getProject();
    StringBuilder b = new StringBuilder("{");
    field(b, "groupId", p.getGroupId()).append(',');
    field(b, "artifactId", p.getArtifactId()).append(',');
    field(b, "packaging", p.getPackaging()).append(',');
    field(b, "basedir", p.getBasedir().getAbsolutePath()).append(',');
    field(b, "outputDirectory", p.getBuild().getOutputDirectory()).append(',');
    field(b, "testOutputDirectory", p.getBuild().getTestOutputDirectory()).append(',');
    list(b, "runtime", p.getRuntimeClasspathElements()).append(',');
    list(b, "test", p.getTestClasspathElements()).append("}\\n");
    synchronized (HeapLensClasspathSpy.class) {
      try (Writer w = new OutputStreamWriter(new FileOutputStream(new File(out), true), StandardCharsets.UTF_8)) {
        w.write(b.toString());
      }
    }
  }

  private static StringBuilder field(StringBuilder b, String name, String value) {
    return quote(b.append('"').append(name).append("\\":"), value);
  }

  private static StringBuilder list(StringBuilder b, String name, List<String> values) {
    b.append('"').append(name).append("\\":[");
    for (int i = 0; i < values.size(); i++) quote(i == 0 ? b : b.append(','), values.get(i));
    return b.append(']');
  }

  private static StringBuilder quote(StringBuilder b, String s) {
    if (s == null) return b.append("null");
    b.append('"');
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\\\') b.append('\\\\').append(c);
      else if (c < 0x20) b.append(String.format("\\\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"');
  }
}
`;

/** One project of the reactor, as the spy wrote it. */
export interface SpyModule {
  groupId: string;
  artifactId: string;
  packaging: string;
  basedir: string;
  outputDirectory: string;
  testOutputDirectory: string;
  runtime: string[];
  test: string[];
}

export function parseSpyOutput(text: string): SpyModule[] {
  const byDir = new Map<string, SpyModule>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as SpyModule;
    byDir.set(m.basedir, m);
  }
  return [...byDir.values()];
}

/** The Maven installation's home from `mvn -v` ("Maven home: /usr/share/maven"). */
export function mavenHomeOf(versionOutput: string): string | undefined {
  const m = /^Maven home: (.+)$/m.exec(versionOutput.replace(/\x1b\[[0-9;]*m/g, ''));
  return m ? m[1].trim() : undefined;
}

/**
 * The spy's class folder for this Maven home, compiled on first use into `cacheDir` (javac of `javaHome`, against
 * `mavenHome/lib/*`). Resolves to the folder to pass as -Dmaven.ext.class.path.
 */
export async function ensureSpy(cacheDir: string, mavenHome: string, javac: string): Promise<string> {
  const key = createHash('sha256').update(SPY_SOURCE).update(mavenHome).digest('hex').slice(0, 16);
  const dir = path.join(cacheDir, `maven-spy-${key}`);
  const index = path.join(dir, 'META-INF', 'sisu', 'javax.inject.Named');
  if (fs.existsSync(index)) return dir;
  const work = `${dir}.tmp${process.pid}`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(path.join(work, 'src'), { recursive: true });
  const src = path.join(work, 'src', 'HeapLensClasspathSpy.java');
  fs.writeFileSync(src, SPY_SOURCE);
  const r = await execTool(javac, ['--release', '8', '-nowarn', '-proc:none', '-cp', path.join(mavenHome, 'lib', '*'), '-d', work, src], { cwd: work, timeoutMs: 120_000 });
  if (r.code !== 0) {
    fs.rmSync(work, { recursive: true, force: true });
    throw new ProjectError('buildFailed', `HeapLens could not prepare its Maven class-path reader for the Maven in ${mavenHome} (javac failed).`, r.output);
  }
  fs.rmSync(path.join(work, 'src'), { recursive: true, force: true });
  fs.mkdirSync(path.dirname(path.join(work, 'META-INF', 'sisu', 'x')), { recursive: true });
  fs.writeFileSync(path.join(work, 'META-INF', 'sisu', 'javax.inject.Named'), `${SPY_CLASS}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(work, dir);
  return dir;
}
