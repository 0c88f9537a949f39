import { describe, expect, it } from 'vitest';
import { framePage } from './prerender';

const shell = `<!doctype html>
<html lang="en">
  <head>
    <title>Tunesmith: Create Music with AI</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-123.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('framePage', () => {
  it("puts the frame in #root, marked, and its title in the head's place", () => {
    const page = framePage(shell, '<title>Pricing | Tunesmith</title><main><h1>Choose Your Plan</h1></main>');
    expect(page).toContain('<div id="root" data-prerendered=""><main><h1>Choose Your Plan</h1></main></div>');
    expect(page).toContain('<title>Pricing | Tunesmith</title>');
    expect(page).not.toContain('Create Music with AI');
  });

  it("fetches the app's code at low priority and runs it through the loader, the stylesheet untouched", () => {
    const page = framePage(shell, '<main></main>');
    expect(page).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-abc.js" data-app="">',
    );
    expect(page).toContain('<script type="module" fetchpriority="low" src="/boot.js"></script>');
    expect(page).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/jsx-runtime-def.js">',
    );
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-123.css">');
    expect(page).not.toContain('src="/assets/index-abc.js"');
  });

  it('keeps style attributes, which the CSP refuses, as data, and disables controls until the app takes over', () => {
    const page = framePage(
      shell,
      '<form><div style="outline:none"><input id="email" type="email"/><textarea name="t"></textarea><button type="submit" disabled="">Go</button><select><option>a</option></select></div></form><a href="/pricing">Pricing</a>',
    );
    expect(page).not.toMatch(/\sstyle=/);
    expect(page).toContain('<div data-frame-style="outline:none">');
    expect(page).toContain('<input disabled="" data-frame-disabled="" id="email" type="email"/>');
    expect(page).toContain('<textarea disabled="" data-frame-disabled="" name="t">');
    // A control the page itself disables stays as it is: the app keeps it disabled.
    expect(page).toContain('<button type="submit" disabled="">Go</button>');
    expect(page).toContain('<select disabled="" data-frame-disabled="">');
    expect(page).toContain('<a href="/pricing">Pricing</a>');
  });

  it('keeps the marker of a part left to the app, without its message or stack', () => {
    const page = framePage(
      shell,
      '<main><!--$!--><template data-dgst="frame" data-msg="waits" data-stck="at /work/x.ts:1"></template><p aria-busy="true">Loading</p><!--/$--></main>',
    );
    expect(page).toContain(
      '<!--$!--><template data-dgst="frame"></template><p aria-busy="true">Loading</p><!--/$-->',
    );
    expect(page).not.toContain('/work/x.ts');
  });

  it('refuses a frame that would need a script to show', () => {
    expect(() =>
      framePage(shell, '<main><template id="B:0"></template></main><script>$RC()</script>'),
    ).toThrow(/script or a template/);
  });
});
