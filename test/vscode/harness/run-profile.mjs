// The profile a "Profile Memory" run just saved, in the HeapLens editor. The extension opens it by itself when the
// run ends (setting heaplens.openProfileWhenRunEnds), so a scenario waits for that editor instead of asking
// "Open Profile…": the editor opening under the quick pick closed it before its row could be clicked (a clean CI
// run's accounts scenario timed out that way).

/**
 * The newest profile named in the Debug Console ("profile saved to …/NAME") whose name matches `pattern`; read it
 * while the Debug Console is shown.
 */
export async function savedProfileName(wb, pattern) {
  const saved = [...(await wb.consoleText()).matchAll(new RegExp(pattern.source, 'g'))].map((m) => m[0]);
  const name = saved.at(-1);
  if (!name) throw new Error(`no saved profile matching ${pattern} in the Debug Console`);
  return name;
}

/**
 * Waits for the editor of profile `name` and returns the frame of its view. The exact file name, so that a
 * profile of an earlier scenario left open (with a name of the same shape) is not taken for it.
 */
export async function runProfileView(wb, name) {
  const view = wb.page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');
  await view.locator('.title', { hasText: name }).waitFor({ timeout: 30000 });
  console.log(`  opened by itself: ${name}`);
  return view;
}
