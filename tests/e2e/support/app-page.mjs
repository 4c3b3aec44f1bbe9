// Page object for the Promptscope app: selectors and actions in one place.

/** Polls `check` (which throws or returns false while not yet true) until it passes. */
export async function eventually(check, { timeout = 10_000, interval = 50 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    let failure;
    try {
      const result = await check();
      if (result !== false) return result;
      failure = new Error('condition still false');
    } catch (err) {
      failure = err;
    }
    if (Date.now() > deadline) {
      failure.message = `not true within ${timeout} ms: ${failure.message}`;
      throw failure;
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

export class AppPage {
  /** @param {import('playwright-core').Page | import('playwright-core').FrameLocator} root */
  constructor(root, page = root) {
    this.page = page;
    const id = (testId) => root.getByTestId(testId);
    // Model pane.
    this.templateInput = id('template-input');
    this.hasTemplate = id('has-template');
    this.systemInput = id('system-input');
    this.modelMessagesInput = id('model-messages-input');
    this.rendererSelect = id('renderer-select');
    this.parserSelect = id('parser-select');
    this.goTemplateEnv = id('go-template-env');
    this.chatTemplateInput = id('chat-template-input');
    this.capability = (name) => id(`cap-${name}`);
    // Request pane.
    this.requestInput = id('request-input');
    this.requestError = id('request-error');
    this.pasteInput = id('paste-input');
    this.pasteError = id('paste-error');
    this.endpointChat = id('endpoint-chat');
    this.endpointGenerate = id('endpoint-generate');
    this.thinkSelect = id('think-select');
    this.addMessageButton = id('add-message');
    this.messageRows = id('message-row');
    this.tab = (name) => id(`tab-${name}`);
    // Prompt pane.
    this.promptOutput = id('prompt-output');
    this.tokenCount = id('token-count');
    this.promptStats = id('prompt-stats');
    this.errorOutput = id('error-output');
    this.inputError = id('input-error');
    this.noPrompt = id('no-prompt');
    this.whitespaceToggle = id('whitespace-toggle');
    // Explain pane.
    this.selectedPath = id('selected-path');
    this.selectedRule = id('selected-rule');
    this.explainBranch = id('explain-branch');
    this.explainVars = id('explain-vars');
    this.explainCapabilities = id('explain-capabilities');
    this.explainThink = id('explain-think');
    this.explainMessages = id('explain-messages');
    this.explainRejection = id('explain-rejection');
    this.debugCurl = id('debug-curl');
    this.modelfile = id('modelfile');
    // Header and toolbar.
    this.example = (name) => id(`example-${name}`);
    this.shareButton = id('share-button');
    this.shareUrl = id('share-url');
    this.langSelect = id('lang-select');
    this.themeSelect = id('theme-select');
    this.notice = id('notice');
    this.root = root;
  }

  /** Opens the app and waits until the WebAssembly app has mounted. */
  async open(url) {
    await this.page.goto(url);
    await this.ready();
  }

  /** Waits until the app has mounted and had a frame to render in. */
  async ready() {
    await this.page.waitForFunction(() => document.documentElement.dataset.appReady === 'true', null, {
      timeout: 30_000,
    });
    await this.page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
  }

  /** Opens the Model pane's "More" fold (MESSAGE, PARAMETER, RENDERER, date, …). */
  async openMore() {
    const more = this.page.getByTestId('model-more');
    if (!(await more.evaluate((d) => d.open))) await more.locator('summary').first().click();
  }

  async setTemplate(text) {
    await this.templateInput.fill(text);
  }

  /** Clears the template and types `text` key by key. */
  async typeTemplate(text) {
    await this.templateInput.fill('');
    await this.templateInput.pressSequentially(text);
  }

  /** Replaces the request body: an object (pretty-printed) or text. */
  async setRequest(body) {
    const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
    await this.requestInput.fill(text);
  }

  async requestJson() {
    return JSON.parse(await this.requestInput.inputValue());
  }

  templateText() {
    return this.templateInput.inputValue();
  }

  /** The exact prompt text (whitespace preserved). */
  promptText() {
    return this.promptOutput.textContent();
  }

  /** Waits until the prompt equals `expected`. */
  async expectPrompt(expected, options) {
    await eventually(async () => {
      const got = await this.promptText();
      if (got !== expected) throw new Error(`prompt is ${JSON.stringify(got)}`);
    }, options);
  }

  /** The exact error text, or null when no error is shown. */
  async errorText() {
    const texts = await this.errorOutput.allTextContents();
    return texts.length === 0 ? null : texts[0];
  }

  /** Loads an example from the Examples menu (opened first when closed). */
  async loadExample(id) {
    const menu = this.page.getByTestId('examples-menu');
    if ((await menu.count()) === 1 && !(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
    await this.example(id).click();
    await eventually(async () => (await this.notice.textContent()).length > 0);
  }
}
