// UI scenarios of the editor features (issue 6) for ui.mjs's Workbench: profile the sample WordIndex
// through "Profile Memory: WordIndex", open its source, and see the allocation CodeLens, the hot-line
// decorations and their hover, and a lens click. No Java extension is installed in this VS Code, so the
// method ranges come from HeapLens's own parser. Screenshots go to build/vscode-screenshots/.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const lensLinks = (wb) => wb.page.locator('.monaco-editor .codelens-decoration a');

export const EDITOR_SCENARIOS = {
  async 'editor: allocation CodeLens and hot lines on WordIndex.java after profiling it'(wb) {
    const page = wb.page;
    await wb.startConfiguration('Profile Memory: WordIndex');
    await wb.waitFor('the WordIndex session to end', async () => /profile saved to .*WordIndex-\d{8}-\d{6}\.heaplens/.test(await wb.consoleText()), 90000);
    // room for the code: no secondary side bar, no panel
    if (await wb.page.locator('.part.auxiliarybar').isVisible().catch(() => false)) await wb.tryCommand('View: Hide Secondary Side Bar');
    await wb.tryCommand('View: Hide Panel');
    await wb.openFile('WordIndex.java');
    const titles = await wb.waitFor('the allocation CodeLens', async () => {
      const t = await lensLinks(wb).allTextContents();
      return t.some((x) => /^HeapLens: [\d,]+ allocations/.test(x)) ? t : undefined;
    }, 30000);
    console.log(`  lenses: ${titles.filter((t) => t.startsWith('HeapLens')).slice(0, 3).join(' | ')}`);
    if (!titles.some((t) => /^incl\. callees: /.test(t))) throw new Error(`no inclusive lens: ${titles.join(' | ')}`);
    if (!titles.includes('HeapLens: no allocations of its own')) throw new Error('indexChunk should have "no allocations of its own"');
    // the lens's tooltip says which calls the exact mode counts (agent option leaves=skip: those that called or allocated)
    const tip = await lensLinks(wb).filter({ hasText: /^HeapLens: [\d,]+ allocations/ }).first().getAttribute('title');
    console.log(`  lens tooltip: ${(tip ?? '').replace(/\n/g, ' / ').slice(0, 400)}`);
    if (!/\n[\d,]+ calls? that called or allocated something in [\d,]+ calling contexts?, all threads\./.test(tip ?? '')) {
      throw new Error(`the lens tooltip does not say which calls are counted: ${tip}`);
    }
    const status = page.locator('.statusbar-item', { hasText: /WordIndex-\d{8}-\d{6}\.heaplens/ });
    await status.first().waitFor({ timeout: 10000 });
    await wb.shot('editor-codelens-wordindex');

    // The hottest application lines allocate only inside JDK calls (issue 19: JDK work is charged to the line that
    // asked for it): words.add(word.toString()) in tokenize() (a String and its byte[] per word), then
    // counts.merge(...) in count() (HashMap nodes and Integer boxes), then new Entry(...) in top().
    const hoverOf = async (what, text, rank) => {
      const t = (await wb.hover(`the hover of hot line ${rank} (${what})`, text, `hot allocation line ${rank} of`)).replace(/\s+/g, ' ');
      console.log(`  hover of hot line ${rank}: ${t.slice(0, 200)}`);
      return t;
    };
    await wb.goToLine(57);
    await page.locator('.monaco-editor .view-overlays .cdr, .monaco-editor .margin-view-overlays .cgmr').first().waitFor({ timeout: 10000 });
    const toString = await hoverOf('words.add(word.toString())', 'words.add(word.toString());', 1);
    if (!/inside StringBuilder\.toString: (String [\d,]+, byte\[\] [\d,]+|byte\[\] [\d,]+, String [\d,]+)/.test(toString)) {
      throw new Error(`hot line 1 does not say what StringBuilder.toString allocated: ${toString}`);
    }
    await wb.shot('editor-hot-line-1-toString');
    await page.keyboard.press('Escape');
    await wb.goToLine(79);
    await wb.shot('editor-hot-lines');
    const merge = await hoverOf('counts.merge', 'counts.merge(w, 1, Integer::sum);', 2);
    if (!/inside Map\.merge: HashMap\$Node [\d,]+, Integer [\d,]+/.test(merge)) throw new Error(`hot line 2 does not say what Map.merge allocated: ${merge}`);
    await page.keyboard.press('Escape');
    const text = await wb.hover('the hover of hot line 3 (new Entry)', 'entries.add(new Entry(', 'hot allocation line 3 of');
    console.log(`  hover: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
    if (!/demo\.WordIndex\$Entry/.test(text)) throw new Error(`the hover does not list demo.WordIndex$Entry: ${text}`);
    if (!/WordIndex\.main › WordIndex\.top/.test(text)) throw new Error(`the hover does not show the calling context: ${text}`);
    await wb.shot('editor-hot-line-hover');
    await page.keyboard.press('Escape');

    // a lens click: the flame tree (or, until the panel can focus a method, the panel and a note)
    await wb.goToLine(49);
    // tokenize's lens (160,071 allocations on JDK 17; any method with 100,000 or more will do)
    const tokenize = lensLinks(wb).filter({ hasText: /^HeapLens: \d{3},\d{3} allocations/ }).first();
    await tokenize.waitFor({ timeout: 10000 });
    await tokenize.click();
    await wb.waitFor('the HeapLens panel focused on the method', async () => (await page.locator('.tab', { hasText: /WordIndex\.\w+ · WordIndex-/ }).count()) > 0, 15000);
    await sleep(1500);
    await wb.shot('editor-lens-click');
  },
};
