// account.js — the person's account in the header (issue 33 §1; docs/server.md,
// "Accounts"): "Sign in" opens one dialog that signs in or, switched, signs up
// (name and password, labelled; the server's refusal said in words); once
// signed in, the name is a button whose menu changes the password, signs out
// or deletes the account (the password asked again, what happens to the games
// said first). The session is an HttpOnly cookie this page never sees: it asks
// /api/account/me who it is. After a sign-in, sign-up, sign-out or deletion
// the page reloads, so its WebSocket comes back with (or without) the cookie
// and the server seats the person under the account's name. Loaded by
// index.html on its own; it draws into #account and again when the language
// changes.

import { t } from './i18n.js';
import { h, clear } from './dom.js';

const NAME_KEY = 'parlour.name'; // room.js's: its join form starts with the account's name

let me = undefined; // undefined: not asked yet; null: a guest; else the account's name
let menuOpen = false;

/** One call of /api/account/PATH: {status, body} (body {} when not JSON);
 * status 0 when the server could not be reached. */
export async function call(path, body) {
  const init = body === undefined
    ? { method: 'GET', credentials: 'same-origin', cache: 'no-store' }
    : { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  try {
    const r = await fetch('/api/account/' + path, init);
    let j = {};
    try {
      j = await r.json();
    } catch {}
    return { status: r.status, body: j || {} };
  } catch {
    return { status: 0, body: {} };
  }
}

/** The words of a refusal: the server's error word, in the reader's language. */
function errorText(res) {
  if (res.status === 0) return t('acct.err.network');
  const known = ['bad_name', 'bad_password', 'name_taken', 'wrong', 'rate', 'no_session'];
  return known.includes(res.body.error) ? t('acct.err.' + res.body.error) : t('acct.err.other');
}

function remember(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {}
}

/** A labelled field: its <label> holds the text and the input. */
function field(id, key, type, autocomplete, hint) {
  const input = h('input', { id, name: id, type, required: true, autocomplete, spellcheck: 'false', autocapitalize: 'off' });
  if (type === 'password') input.minLength = 8;
  else input.maxLength = 40;
  if (hint) input.setAttribute('aria-describedby', id + '-hint');
  return h('div', { class: 'acct-field' },
    h('label', { for: id }, t(key)), input,
    hint ? h('span', { id: id + '-hint', class: 'quiet acct-hint' }, t(hint)) : null);
}

/** A modal dialog (Esc and Cancel close it; focus stays inside while it is
 * open and goes back to `back` after). `build(form, err, done)` fills the form. */
function dialog(id, title, back, build) {
  const old = document.getElementById(id);
  if (old) old.remove();
  const err = h('p', { class: 'acct-error', role: 'alert', id: id + '-error' });
  const form = h('form', { class: 'acct-form', method: 'dialog', novalidate: true });
  const d = h('dialog', { id, class: 'acct-dialog', 'aria-labelledby': id + '-title' },
    h('h2', { id: id + '-title' }, title), form);
  const close = () => {
    d.close();
    d.remove();
    if (back && back.isConnected) back.focus();
  };
  d.addEventListener('cancel', (ev) => {
    ev.preventDefault();
    close();
  });
  build(form, err, close);
  document.body.append(d);
  d.showModal();
  const first = form.querySelector('input');
  if (first) first.focus();
  return d;
}

/** The buttons at the end of a dialog's form: the main one and Cancel. */
function actions(label, close, danger) {
  return h('div', { class: 'row acct-actions' },
    h('button', { type: 'submit', class: danger ? 'danger' : 'primary' }, label),
    h('button', { type: 'button', onclick: close }, t('acct.cancel')));
}

/** Runs `send` once per press (the button waits meanwhile); on a refusal its
 * words go to `err` and the first field takes the focus again. */
function submitter(form, err, send) {
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const btn = form.querySelector('button[type=submit]');
    if (btn.disabled) return;
    for (const i of form.querySelectorAll('input')) {
      if (!i.value) {
        err.textContent = t('acct.err.empty');
        i.setAttribute('aria-invalid', 'true');
        i.focus();
        return;
      }
      i.removeAttribute('aria-invalid');
    }
    btn.disabled = true;
    err.textContent = '';
    const res = await send();
    btn.disabled = false;
    if (res && res.status !== 200) {
      err.textContent = errorText(res);
      const bad = res.body.error === 'bad_name' || res.body.error === 'name_taken'
        ? form.querySelector('input[type=text]') : form.querySelector('input[type=password]');
      if (bad) {
        bad.setAttribute('aria-invalid', 'true');
        bad.focus();
      }
    }
  });
}

/** The sign-in dialog; `up` starts it on sign-up. */
export function openSignin(back, up = false) {
  let signup = up;
  return dialog('acct-signin', t(signup ? 'acct.title.signup' : 'acct.title.signin'), back, (form, err, close) => {
    const draw = () => {
      clear(form);
      const title = document.getElementById('acct-signin-title'); // null on the first draw: set by dialog()
      if (title) title.textContent = t(signup ? 'acct.title.signup' : 'acct.title.signin');
      form.append(
        field('acct-name', 'acct.name', 'text', 'username', signup ? 'acct.name.hint' : null),
        field('acct-password', 'acct.password', 'password', signup ? 'new-password' : 'current-password',
          signup ? 'acct.password.hint' : null),
        err,
        actions(t(signup ? 'acct.signup' : 'acct.signin'), close),
        h('p', { class: 'acct-switch' },
          h('button', {
            type: 'button', class: 'linkish', id: 'acct-switch',
            onclick: () => {
              signup = !signup;
              err.textContent = '';
              draw();
              form.querySelector('input').focus();
            },
          }, t(signup ? 'acct.switch.signin' : 'acct.switch.signup'))));
    };
    draw();
    submitter(form, err, async () => {
      const name = form.querySelector('#acct-name').value.trim();
      const password = form.querySelector('#acct-password').value;
      const res = await call(signup ? 'signup' : 'signin', { name, password });
      if (res.status === 200) {
        remember(res.body.name);
        location.reload(); // the WebSocket comes back with the cookie
      }
      return res;
    });
  });
}

function openPassword(back) {
  return dialog('acct-pw', t('acct.password.change'), back, (form, err, close) => {
    form.append(
      field('acct-old', 'acct.password.old', 'password', 'current-password'),
      field('acct-new', 'acct.password.new', 'password', 'new-password', 'acct.password.hint'),
      err,
      actions(t('acct.save'), close));
    submitter(form, err, async () => {
      const res = await call('password', {
        old_password: form.querySelector('#acct-old').value,
        new_password: form.querySelector('#acct-new').value,
      });
      if (res.status === 200) {
        close();
        say(t('acct.password.done'));
      }
      return res;
    });
  });
}

function openDelete(back) {
  return dialog('acct-del', t('acct.delete'), back, (form, err, close) => {
    form.append(
      h('p', { id: 'acct-del-about' }, t('acct.delete.about')),
      field('acct-del-password', 'acct.delete.password', 'password', 'current-password'),
      err,
      actions(t('acct.delete.confirm'), close, true));
    form.querySelector('input').setAttribute('aria-describedby', 'acct-del-about');
    submitter(form, err, async () => {
      const res = await call('delete', { password: form.querySelector('#acct-del-password').value });
      if (res.status === 200) {
        remember('');
        location.reload();
      }
      return res;
    });
  });
}

/** Says `text` in the header's live region (a screen reader reads it). */
function say(text) {
  const s = document.getElementById('acct-said');
  if (s) s.textContent = text;
}

async function signout() {
  await call('signout', {});
  location.reload();
}

/** Draws the header's part: "Sign in", or the name and its menu. */
export function render() {
  const el = document.getElementById('account');
  if (!el) return;
  clear(el);
  el.append(h('span', { id: 'acct-said', class: 'sr', role: 'status', 'aria-live': 'polite' }));
  if (me === undefined) return;
  if (me === null) {
    const b = h('button', { type: 'button', id: 'acct-open', class: 'acct-button' }, t('acct.signin'));
    b.addEventListener('click', () => openSignin(b));
    el.append(b);
    return;
  }
  const menuId = 'acct-menu';
  const toggle = h('button', {
    type: 'button', id: 'acct-me', class: 'acct-button', 'aria-haspopup': 'true', 'aria-expanded': String(menuOpen),
    'aria-controls': menuId, 'aria-label': t('acct.menu', { name: me }),
  }, h('span', { class: 'acct-name', translate: 'no' }, me), ' ▾');
  const item = (id, key, fn) => h('li', {}, h('button', { type: 'button', id, onclick: () => {
    menuOpen = false;
    render();
    fn(document.getElementById('acct-me'));
  } }, t(key)));
  const menu = h('ul', { id: menuId, class: 'acct-menu', hidden: !menuOpen },
    h('li', { class: 'quiet' }, t('acct.signedIn', { name: me })),
    h('li', {}, h('a', { id: 'acct-page', href: '/player/' + encodeURIComponent(me) }, t('player.mine'))),
    item('acct-password-open', 'acct.password.change', openPassword),
    item('acct-signout', 'acct.signout', signout),
    item('acct-delete-open', 'acct.delete', openDelete));
  toggle.addEventListener('click', () => {
    menuOpen = !menuOpen;
    render();
    const again = document.getElementById('acct-me');
    if (menuOpen) document.querySelector('#acct-menu button').focus();
    else if (again) again.focus();
  });
  menu.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      menuOpen = false;
      render();
      document.getElementById('acct-me').focus();
    }
  });
  el.append(h('span', { class: 'acct-wrap' }, toggle, menu));
}

/** Asks the server who this is, then draws. */
export async function refresh() {
  const res = await call('me');
  me = res.status === 200 && typeof res.body.name === 'string' ? res.body.name : null;
  if (me) remember(me);
  render();
  return me;
}

if (typeof document !== 'undefined' && document.getElementById('account')) {
  const sel = document.getElementById('lang');
  if (sel) sel.addEventListener('change', () => render());
  document.addEventListener('click', (ev) => {
    if (menuOpen && !ev.target.closest('.acct-wrap')) {
      menuOpen = false;
      render();
    }
  });
  refresh();
}
