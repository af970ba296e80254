// The settings' keys (under `heaplens.`) and defaults, without `vscode`, so a unit test can compare them with
// package.json. Read them with `setting()` from extension/settings.ts.
export const SETTINGS = {
  javaHome: '' as string,
  sourcePaths: [] as string[],
  'codeLens.enabled': true as boolean,
  'codeLens.inclusive': 'lens' as 'lens' | 'tooltip',
  'codeLens.methodRanges': 'auto' as string,
  'hotLines.enabled': true as boolean,
  'hotLines.count': 10 as number,
  'hotLines.metric': 'count' as 'count' | 'bytes',
  'hotLines.scope': 'application' as 'application' | 'all',
  'hotLines.afterText': true as boolean,
  'editor.liveUpdateInterval': 1000 as number,
  openProfileWhenRunEnds: true as boolean,
  'project.compileBeforeLaunch': true as boolean,
};

export type SettingKey = keyof typeof SETTINGS;
