// Every command id HeapLens registers or runs, in one table: the registration sites, the status bar and the
// webview hosts use these names, and test/unit/commands.test.ts checks the table against package.json's
// contributions, so an id cannot drift between the manifest and the code.
export const COMMANDS = {
  // a running session (extension/launch/commands.ts)
  pauseProfiling: 'heaplens.pauseProfiling',
  resumeProfiling: 'heaplens.resumeProfiling',
  resetProfiling: 'heaplens.resetProfiling',
  switchMode: 'heaplens.switchMode',
  forceGc: 'heaplens.forceGc',
  takeSnapshot: 'heaplens.takeSnapshot',
  openProfile: 'heaplens.openProfile',
  profileJavaConfiguration: 'heaplens.profileJavaConfiguration',
  pickJavaProcess: 'heaplens.pickJavaProcess',
  // the JDK (extension/launch/jdk-ui.ts)
  checkJava: 'heaplens.checkJava',
  chooseJdk: 'heaplens.chooseJdk',
  // profiles and heap dumps (extension/panels)
  showProfile: 'heaplens.showProfile',
  sessionActions: 'heaplens.sessionActions',
  takeHeapDump: 'heaplens.takeHeapDump',
  openHeapDump: 'heaplens.openHeapDump',
  showRetention: 'heaplens.showRetention',
  // the editor (extension/editor/register.ts)
  focusMethod: 'heaplens.focusMethod',
  showCallersCallees: 'heaplens.showCallersCallees',
  revealFrame: 'heaplens.revealFrame',
  toggleCodeLens: 'heaplens.toggleCodeLens',
  toggleHotLines: 'heaplens.toggleHotLines',
  selectEditorProfile: 'heaplens.selectEditorProfile',
  // JUnit tests of a Maven or Gradle project (extension/editor/test-lenses.ts)
  profileTest: 'heaplens.profileTest',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];
