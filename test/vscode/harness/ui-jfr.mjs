// UI scenario of JFR recordings (issue 23) for ui.mjs's Workbench: a recording of the sample WordIndex, made with
// -XX:StartFlightRecording when the workspace is prepared, opened from Quick Open like any file. The HeapLens
// editor reads it (the JDK's own JFR reader, in the agent jar), shows its flame tree, and its allocation samples
// become the CodeLens over WordIndex.java, labelled as estimates. The scenario chooses the recording as the
// editor's profile itself: a profile opened at an earlier run's end must not stand in for it (once it did, and
// the estimated lenses never came). Screenshots in build/vscode-screenshots/.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const JFR_SCENARIOS = {
  async 'JFR recording: open wordindex.jfr, its flame tree, and estimated CodeLens in WordIndex.java'(wb) {
    const page = wb.page;
    await wb.openFile('wordindex.jfr');
    const view = page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
    const top = view.locator('.flame-summary li[data-frame]').first();
    await top.waitFor({ state: 'attached', timeout: 90000 });
    const frame = await top.getAttribute('data-frame');
    console.log(`  top frame of the recording: ${frame}`);
    if (!/^demo\.WordIndex\./.test(frame ?? '')) throw new Error(`the recording's top frame is ${frame}, expected demo.WordIndex.…`);
    // the data line says these are estimates and from what
    const label = view.getByText(/ESTIMATES from a JFR recording's allocation samples/).first();
    await label.waitFor({ timeout: 10000 });
    console.log(`  data line: ${((await label.textContent()) ?? '').slice(0, 120)}`);
    await sleep(500);
    await wb.shot('jfr-recording-flame');
    await wb.openFile('WordIndex.java');
    // the recording as the profile the editor shows, chosen by name (the picker lists every profile followed)
    await wb.command('HeapLens: Choose the Profile Shown in the Editor…');
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'wordindex.jfr.heaplens' }).first();
    await pick.waitFor({ timeout: 10000 });
    await pick.click();
    await page.locator('.statusbar-item', { hasText: 'wordindex.jfr.heaplens' }).first().waitFor({ timeout: 10000 });
    // CodeLens is drawn only for lines on screen: show tokenize (line 49), whose lens the recording must give
    await wb.goToLine(49);
    const lenses = page.locator('.monaco-editor .codelens-decoration a');
    const titles = await wb.waitFor('the estimated CodeLens from the recording', async () => {
      const t = await lenses.allTextContents();
      return t.some((x) => /^HeapLens \(estimated\): /.test(x)) ? t : undefined;
    }, 60000);
    console.log(`  lenses: ${titles.filter((t) => t.startsWith('HeapLens')).slice(0, 3).join(' | ')}`);
    await wb.goToLine(49);
    await sleep(500);
    await wb.shot('jfr-recording-codelens');
  },
};
