// test_account.mjs — an account in the browser (issue 33 §1; web/js/account.js),
// at phone (360×740) and desktop (1366×768) size, against `parlour serve
// --test-fast-hash`: sign up (the dialog's switch, its labelled fields, by
// the keyboard), see the name in the header, reload (still signed in), play a
// room seated under the account's name (the name typed in the join form is
// not the one seated), sign out, a wrong password said in words, sign in,
// change the password, delete the account (what happens to the games said
// first), after which the name no longer signs in. Screenshots of each step.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';

const PW = 'correct horse';
const PW2 = 'battery staple';

run('account', async (h) => {
  for (const size of ['phone', 'desktop']) {
    const name = size === 'phone' ? 'Ada Phone' : 'Ada Desktop';
    const page = await h.page(size, { lang: 'en' });
    const signedIn = async (who) => {
      await page.locator('#acct-me').waitFor();
      h.check((await page.locator('#acct-me .acct-name').innerText()) === who, 'the header says ' + who);
    };
    await h.step(`sign up (${size})`, async () => {
      await page.goto(h.url('/'));
      await page.locator('#acct-open').waitFor();
      h.check((await page.locator('#acct-open').innerText()) === en['acct.signin'], 'a guest sees "Sign in"');
      await page.locator('#acct-open').focus();
      await page.keyboard.press('Enter'); // the keyboard opens it
      await page.locator('dialog#acct-signin[open]').waitFor();
      h.check(await page.evaluate(() => document.activeElement && document.activeElement.id === 'acct-name'),
        'the name field has the focus');
      await page.click('#acct-switch');
      h.check((await page.locator('#acct-signin-title').innerText()) === en['acct.title.signup'], 'switched to sign-up');
      await page.getByLabel(en['acct.name'], { exact: true }).fill(name); // labelled fields
      await page.getByLabel(en['acct.password'], { exact: true }).fill('short');
      await page.keyboard.press('Enter');
      await page.locator('#acct-signin-error', { hasText: en['acct.err.bad_password'] }).waitFor();
      h.check((await page.locator('#acct-password').getAttribute('aria-invalid')) === 'true', 'the field marked invalid');
      h.expectLayout(await h.layout(page, { root: 'dialog#acct-signin' }), 'the sign-up dialog'); // over the page: modal
      await h.expectAxeClean(page, 'the sign-up dialog', { include: 'dialog#acct-signin' });
      await h.shot(page, `signup-${size}`, { fullPage: false });
      await page.getByLabel(en['acct.password'], { exact: true }).fill(PW);
      await page.keyboard.press('Enter');
      await signedIn(name);
      await h.shot(page, `signed-in-${size}`, { fullPage: false });
    });
    await h.step(`reload: still signed in (${size})`, async () => {
      await page.reload();
      await signedIn(name);
    });
    await h.step(`play a room under the account's name (${size})`, async () => {
      const { room } = await h.createRoom(page, { game: 'ur', seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] });
      await page.goto(h.url('/room/' + room));
      await signedIn(name);
      // signed in: no name asked, the form says under which one they play (room.js)
      await page.locator('#join-as').waitFor();
      h.check((await page.locator('#join-name').count()) === 0, 'no name asked of a signed-in person');
      h.check((await page.locator('#join-as').innerText()) === en['rated.joinAs'].replace('{name}', name), 'the form names the account');
      await page.click('#join-button');
      const st = await h.waitState(page, (s) => s.seat >= 0);
      h.check(st.seats[st.seat].name === name, 'seated under the account name: ' + st.seats[st.seat].name);
      h.expectLayout(await h.layout(page), 'the room');
      await h.shot(page, `room-${size}`, { fullPage: false });
    });
    await h.step(`sign out (${size})`, async () => {
      await page.click('#acct-me');
      await page.locator('#acct-menu:not([hidden])').waitFor();
      h.check((await page.locator('#acct-me').getAttribute('aria-expanded')) === 'true', 'the menu is open');
      h.expectLayout(await h.layout(page, { root: '.top' }), 'the header and its menu'); // the menu lies over the page
      await h.expectAxeClean(page, 'the header and its menu', { include: '.top' });
      await h.shot(page, `menu-${size}`, { fullPage: false });
      await page.click('#acct-signout');
      await page.locator('#acct-open').waitFor();
    });
    await h.step(`Escape closes the dialog, the focus back on its button (${size})`, async () => {
      await page.click('#acct-open');
      await page.locator('dialog#acct-signin[open]').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('dialog#acct-signin').waitFor({ state: 'detached' });
      h.check(await page.evaluate(() => document.activeElement && document.activeElement.id === 'acct-open'), 'focus on "Sign in"');
    });
    await h.step(`a wrong password, then sign in (${size})`, async () => {
      await page.click('#acct-open');
      await page.fill('#acct-name', name);
      await page.fill('#acct-password', 'not the one');
      await page.click('dialog#acct-signin button[type=submit]');
      await page.locator('#acct-signin-error', { hasText: en['acct.err.wrong'] }).waitFor();
      await h.shot(page, `wrong-${size}`, { fullPage: false });
      await page.fill('#acct-password', PW);
      await page.click('dialog#acct-signin button[type=submit]');
      await signedIn(name);
    });
    await h.step(`change the password (${size})`, async () => {
      await page.click('#acct-me');
      await page.click('#acct-password-open');
      await page.locator('dialog#acct-pw[open]').waitFor();
      await page.getByLabel(en['acct.password.old']).fill(PW);
      await page.getByLabel(en['acct.password.new']).fill(PW2);
      await h.shot(page, `password-${size}`, { fullPage: false });
      await page.keyboard.press('Enter');
      await page.locator('#acct-said', { hasText: en['acct.password.done'] }).waitFor({ state: 'attached' });
      h.check((await page.locator('dialog#acct-pw').count()) === 0, 'the dialog closed');
    });
    await h.step(`delete the account (${size})`, async () => {
      await page.click('#acct-me');
      await page.click('#acct-delete-open');
      await page.locator('dialog#acct-del[open]').waitFor();
      h.check((await page.locator('#acct-del-about').innerText()) === en['acct.delete.about'], 'what happens is said');
      h.expectLayout(await h.layout(page, { root: 'dialog#acct-del' }), 'the delete dialog');
      await h.shot(page, `delete-${size}`, { fullPage: false });
      await page.getByLabel(en['acct.delete.password']).fill(PW2);
      await page.click('dialog#acct-del button[type=submit]');
      await page.locator('#acct-open').waitFor();
      const r = await page.evaluate(async (n) => {
        const res = await fetch('/api/account/signin', { method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: n, password: 'battery staple' }) });
        return res.status;
      }, name);
      h.check(r === 403, 'the deleted name no longer signs in: ' + r);
    });
    await page.context().close();
  }
  // the words in the other three languages (the catalogue's acct block), a phone
  for (const lang of ['ru', 'ja', 'vi'])
    await h.step(`the dialogs in ${lang}`, async () => {
      const cat = (await import(`../../web/i18n/${lang}.js`)).default;
      const page = await h.page('phone', { lang });
      await page.goto(h.url('/'));
      await page.locator('#acct-open').waitFor();
      h.check((await page.locator('#acct-open').innerText()) === cat['acct.signin'], `${lang}: "Sign in" in its words`);
      await page.click('#acct-open');
      await page.click('#acct-switch');
      await page.getByLabel(cat['acct.name'], { exact: true }).fill('Người chơi 東京 Игрок');
      await page.getByLabel(cat['acct.password'], { exact: true }).fill('long enough');
      await page.keyboard.press('Enter');
      await page.locator('#acct-me').waitFor();
      h.check((await page.locator('#acct-me .acct-name').innerText()) === 'Người chơi 東京 Игрок', `${lang}: the name as typed`);
      await page.click('#acct-me');
      await page.click('#acct-delete-open');
      h.check((await page.locator('#acct-del-about').innerText()) === cat['acct.delete.about'], `${lang}: what deleting does`);
      h.expectLayout(await h.layout(page, { root: 'dialog#acct-del' }), `${lang}: the delete dialog`);
      await h.shot(page, `delete-phone-${lang}`, { fullPage: false });
      await page.getByLabel(cat['acct.delete.password']).fill('long enough');
      await page.click('dialog#acct-del button[type=submit]');
      await page.locator('#acct-open').waitFor();
      await page.context().close();
    });
}, { extra: ['--test-fast-hash'] });
