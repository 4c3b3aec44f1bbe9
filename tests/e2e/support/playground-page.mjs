// Page object for the Go template playground: selectors and actions in one place.

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

export class PlaygroundPage {
  /** @param {import('playwright-core').Page} page */
  constructor(page) {
    this.page = page;
    this.templateInput = page.getByTestId('template-input');
    this.dataInput = page.getByTestId('data-input');
    this.promptOutput = page.getByTestId('prompt-output');
    this.errorOutput = page.getByTestId('error-output');
    this.loadExampleButton = page.getByRole('button', { name: /example/i });
  }

  /** Opens the app and waits until the WebAssembly app has mounted. */
  async open(url) {
    await this.page.goto(url);
    await this.templateInput.waitFor({ state: 'visible', timeout: 30_000 });
  }

  /** Replaces the template text (one input event). */
  async setTemplate(text) {
    await this.templateInput.fill(text);
  }

  /** Clears the template and types `text` key by key. */
  async typeTemplate(text) {
    await this.templateInput.fill('');
    await this.templateInput.pressSequentially(text);
  }

  /** Replaces the JSON data text (one input event). */
  async setData(text) {
    await this.dataInput.fill(text);
  }

  /** Clears the data and types `text` key by key. */
  async typeData(text) {
    await this.dataInput.fill('');
    await this.dataInput.pressSequentially(text);
  }

  templateText() {
    return this.templateInput.inputValue();
  }

  dataText() {
    return this.dataInput.inputValue();
  }

  /** The exact text of the output area (whitespace preserved). */
  outputText() {
    return this.promptOutput.textContent();
  }

  /** The exact error text, or null when no error is shown. */
  async errorText() {
    if ((await this.errorOutput.count()) === 0) return null;
    return this.errorOutput.textContent();
  }
}
