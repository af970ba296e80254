// `heaplens check --update --budget NEW.json` when NEW.json does not exist yet: a starter budget for the profile
// (the common first step in CI). Its rules have no `max`: the usual update then fills in the measured values.
import { Profile } from '../profile/types';

const JDK_PACKAGES = /^(java|javax|jdk|sun|com\.sun|org\.w3c|org\.xml|org\.ietf)\./;

/** The first two segments of the packages of the profile's own (profiled, non-JDK) methods: `demo.*`, `com.acme.*`. */
export function applicationPackages(profile: Profile): string[] {
  const found = new Set<string>();
  for (const m of profile.methods.values()) {
    if (!m.profiled || JDK_PACKAGES.test(m.class)) continue;
    const parts = m.class.split('.');
    if (parts.length < 2) continue;          // a class in the unnamed package: no package pattern can name it
    found.add(`${parts.slice(0, Math.min(2, parts.length - 1)).join('.')}.*`);
  }
  return [...found].sort();
}

/** The starter budget's text: totals of objects and bytes, and the objects below the application's packages. */
export function starterBudgetText(profile: Profile, profileName: string, today: Date = new Date()): string {
  const rules: Array<Record<string, unknown>> = [
    { id: 'total-objects', total: true, metric: 'objects' },
    { id: 'total-bytes', total: true, metric: 'bytes' },
  ];
  const app = applicationPackages(profile);
  if (app.length > 0) rules.push({ id: 'app-objects', under: app, metric: 'objects' });
  const doc = {
    version: 1,
    comment: `Starter budget written by heaplens check --update from ${profileName} on ${today.toISOString().slice(0, 10)}. `
      + 'Each max is the measured value (plus --margin). Add rules for the methods and types that matter (docs/budgets.md).',
    ignore: ['jdk-frames', 'jdk-class-init'],
    rules,
  };
  const lines = JSON.stringify(doc, null, 2).split('\n');
  // one rule per line, as in the hand-written budgets
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '    {') {
      const rule: string[] = [];
      while (lines[++i] !== '    },' && lines[i] !== '    }') rule.push(lines[i].trim());
      out.push(`    { ${rule.join(' ').replace(/\[ /g, '[').replace(/ \]/g, ']')} }${lines[i].endsWith(',') ? ',' : ''}`);
    } else out.push(lines[i]);
  }
  return out.join('\n') + '\n';
}
