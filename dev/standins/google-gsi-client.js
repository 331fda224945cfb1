// Local stand-in for Google's GSI client (https://accounts.google.com/gsi/client), served by google.ts inside
// `(function (STANDIN_ORIGIN, PRESET_IDENTITIES) { ... })`. It implements the parts of google.accounts.id the
// app uses: initialize({client_id, callback}), renderButton(parent, options) and prompt(). Instead of Google's
// iframe and popup, the button opens an account chooser <dialog> in the page; picking an account asks the
// stand-in for an ID token signed with its key and hands it to the callback exactly as Google does.
'use strict';

var google = (window.google = window.google || {});
google.accounts = google.accounts || {};
if (google.accounts.id && google.accounts.id.__standin) return;

var PREFIX = 'gsi-standin';
var settings = null;
var openDialog = null;

var TEXTS = {
  signin_with: 'Sign in with Google',
  signup_with: 'Sign up with Google',
  continue_with: 'Continue with Google',
  signin: 'Sign in',
};

var LOGO =
  '<svg aria-hidden="true" width="18" height="18" viewBox="0 0 48 48"><path fill="#EA4335" d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"/><path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"/><path fill="#FBBC05" d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"/><path fill="#34A853" d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"/></svg>';

var STYLES = [
  '.' + PREFIX + '-button{display:inline-flex;align-items:center;justify-content:center;gap:10px;height:40px;padding:0 14px;',
  'min-width:200px;max-width:400px;background:#fff;color:#3c4043;border:1px solid #dadce0;border-radius:4px;cursor:pointer;',
  'font:500 14px/1 Roboto,"Google Sans",arial,sans-serif;letter-spacing:.25px;transition:background .2s,border-color .2s}',
  '.' + PREFIX + '-button:hover{background:#f8faff;border-color:#d2e3fc}',
  '.' + PREFIX + '-button:focus-visible{outline:2px solid #1a73e8;outline-offset:2px;box-shadow:none}',
  '.' + PREFIX + '-button--pill{border-radius:20px}.' + PREFIX + '-button--filled_blue{background:#1a73e8;color:#fff;border-color:#1a73e8}',
  '.' + PREFIX + '-button--large{height:44px}.' + PREFIX + '-button--small{height:32px;font-size:13px;min-width:0}',
  '.' + PREFIX + '-dialog{width:min(400px,calc(100vw - 32px));border:0;border-radius:8px;padding:0;color:#202124;',
  'box-shadow:0 4px 24px rgba(0,0,0,.25);font:14px/1.45 Roboto,arial,sans-serif}',
  '.' + PREFIX + '-dialog::backdrop{background:rgba(32,33,36,.45)}',
  '.' + PREFIX + '-head{padding:24px 24px 8px;text-align:center}',
  '.' + PREFIX + '-head h2{margin:10px 0 4px;font:400 22px/1.3 "Google Sans",Roboto,arial,sans-serif;color:#202124}',
  '.' + PREFIX + '-head p{margin:0;color:#5f6368}',
  '.' + PREFIX + '-note{display:inline-block;margin-top:8px;padding:2px 8px;border-radius:10px;background:#fef7e0;color:#7a4a00;font-size:12px}',
  '.' + PREFIX + '-list{list-style:none;margin:8px 0 0;padding:0;border-top:1px solid #e8eaed}',
  '.' + PREFIX + '-list li{border-bottom:1px solid #e8eaed}',
  '.' + PREFIX + '-account{display:flex;align-items:center;gap:12px;width:100%;padding:12px 24px;border:0;background:none;',
  'text-align:left;cursor:pointer;font:inherit;color:inherit}',
  '.' + PREFIX + '-account:hover{background:#f1f3f4}',
  '.' + PREFIX + '-account:focus-visible{outline:2px solid #1a73e8;outline-offset:-2px;box-shadow:none}',
  '.' + PREFIX + '-avatar{flex:none;width:32px;height:32px;border-radius:50%;display:grid;place-items:center;color:#fff;font-weight:500}',
  '.' + PREFIX + '-who{display:flex;flex-direction:column;min-width:0}.' + PREFIX + '-who span{color:#5f6368;overflow-wrap:anywhere}',
  '.' + PREFIX + '-other{padding:16px 24px 8px;display:grid;gap:10px}',
  '.' + PREFIX + '-other legend{padding:0;margin-bottom:4px;font-weight:500}',
  '.' + PREFIX + '-other fieldset{border:0;margin:0;padding:0;display:grid;gap:10px}',
  '.' + PREFIX + '-other label{display:grid;gap:4px;color:#3c4043}',
  '.' + PREFIX + '-other input{font:inherit;padding:8px 10px;border:1px solid #dadce0;border-radius:4px;width:100%;box-sizing:border-box}',
  '.' + PREFIX + '-other input:focus-visible{outline:2px solid #1a73e8;outline-offset:0;box-shadow:none}',
  '.' + PREFIX + '-error{margin:0;color:#b3261e;min-height:1em}',
  '.' + PREFIX + '-actions{display:flex;justify-content:flex-end;gap:8px;padding:8px 24px 20px}',
  '.' + PREFIX + '-action{font:500 14px/1 Roboto,arial,sans-serif;padding:10px 16px;border-radius:4px;border:1px solid transparent;cursor:pointer}',
  '.' + PREFIX + '-action--primary{background:#1a73e8;color:#fff}.' + PREFIX + '-action--primary:hover{background:#1765cc}',
  '.' + PREFIX + '-action--text{background:none;color:#1a73e8}.' + PREFIX + '-action--text:hover{background:#f1f6fe}',
  '.' + PREFIX + '-action:focus-visible{outline:2px solid #1a73e8;outline-offset:2px;box-shadow:none}',
  '.' + PREFIX + '-action:disabled,.' + PREFIX + '-account:disabled{opacity:.6;cursor:progress}',
].join('\n');

var AVATAR_COLOURS = ['#1a73e8', '#d93025', '#188038', '#e37400', '#9334e6', '#007b83'];

function injectStyles() {
  if (document.getElementById(PREFIX + '-style')) return;
  var style = document.createElement('style');
  style.id = PREFIX + '-style';
  style.textContent = STYLES;
  document.head.appendChild(style);
}

function el(tag, attrs, children) {
  var node = document.createElement(tag);
  for (var key in attrs || {}) {
    if (key === 'text') node.textContent = attrs[key];
    else if (key === 'html') node.innerHTML = attrs[key];
    else node.setAttribute(key, attrs[key]);
  }
  (children || []).forEach(function (child) {
    node.appendChild(child);
  });
  return node;
}

function avatar(identity) {
  var code = 0;
  for (var i = 0; i < identity.email.length; i++) code = (code + identity.email.charCodeAt(i)) % 997;
  var node = el('span', { class: PREFIX + '-avatar', 'aria-hidden': 'true', text: (identity.name || identity.email).charAt(0).toUpperCase() });
  node.style.background = AVATAR_COLOURS[code % AVATAR_COLOURS.length];
  return node;
}

function initialize(options) {
  if (!options || !options.client_id) {
    console.warn('[GSI_LOGGER]: Missing required parameter "client_id".');
  }
  settings = Object.assign({}, options);
}

function renderButton(parent, options) {
  if (!(parent instanceof HTMLElement)) {
    console.error('[GSI_LOGGER]: renderButton needs an HTML element to render into.');
    return;
  }
  options = options || {};
  injectStyles();
  var size = options.size || 'large';
  var classes = [PREFIX + '-button', PREFIX + '-button--' + size];
  if (options.shape === 'pill') classes.push(PREFIX + '-button--pill');
  if (options.theme === 'filled_blue') classes.push(PREFIX + '-button--filled_blue');
  var label = TEXTS[options.text] || TEXTS.signin_with;
  var button = el('button', { type: 'button', class: classes.join(' '), title: 'Local Google sign-in stand-in' }, [
    el('span', { html: LOGO, 'aria-hidden': 'true', style: 'display:inline-flex' }),
    el('span', { text: label }),
  ]);
  if (options.width) button.style.width = Math.min(400, Number(options.width)) + 'px';
  button.addEventListener('click', function () {
    openChooser();
  });
  parent.replaceChildren(el('div', { class: PREFIX + '-wrap' }, [button]));
}

function openChooser() {
  if (openDialog) return;
  if (!settings || typeof settings.callback !== 'function') {
    console.error('[GSI_LOGGER]: google.accounts.id.initialize() must be called with a callback before sign-in.');
    return;
  }
  injectStyles();
  var titleId = PREFIX + '-title';
  var error = el('p', { class: PREFIX + '-error', role: 'alert' });
  var dialog = el('dialog', { class: PREFIX + '-dialog', 'aria-labelledby': titleId });
  var controls = [];

  function busy(on) {
    controls.forEach(function (c) {
      c.disabled = on;
    });
  }

  function choose(identity) {
    error.textContent = '';
    busy(true);
    fetch(STANDIN_ORIGIN + '/gsi/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: settings.client_id, name: identity.name, email: identity.email }),
    })
      .then(function (res) {
        return res.json().then(function (body) {
          if (!res.ok || !body.credential) throw new Error(body.error || 'The stand-in did not issue a token.');
          return body.credential;
        });
      })
      .then(function (credential) {
        dialog.close();
        settings.callback({ credential: credential, select_by: 'btn', clientId: settings.client_id });
      })
      .catch(function (err) {
        busy(false);
        error.textContent = err.message + ' Try again.';
      });
  }

  var list = el('ul', { class: PREFIX + '-list', 'aria-label': 'Test accounts' });
  PRESET_IDENTITIES.forEach(function (identity) {
    var who = el('span', { class: PREFIX + '-who' }, [el('strong', { text: identity.name }), el('span', { text: identity.email })]);
    var button = el('button', { type: 'button', class: PREFIX + '-account' }, [avatar(identity), who]);
    button.addEventListener('click', function () {
      choose(identity);
    });
    controls.push(button);
    list.appendChild(el('li', {}, [button]));
  });

  var nameInput = el('input', { type: 'text', name: 'name', autocomplete: 'off', placeholder: 'Test User' });
  var emailInput = el('input', { type: 'email', name: 'email', required: '', autocomplete: 'off', placeholder: 'you@example.com' });
  var useOther = el('button', { type: 'submit', class: PREFIX + '-action ' + PREFIX + '-action--primary', text: 'Continue' });
  var other = el('form', { class: PREFIX + '-other' }, [
    el('fieldset', {}, [
      el('legend', { text: 'Use another account' }),
      el('label', {}, [el('span', { text: 'Name' }), nameInput]),
      el('label', {}, [el('span', { text: 'Email' }), emailInput]),
    ]),
    error,
  ]);
  other.addEventListener('submit', function (event) {
    event.preventDefault();
    choose({ name: nameInput.value.trim(), email: emailInput.value.trim() });
  });
  var cancel = el('button', { type: 'button', class: PREFIX + '-action ' + PREFIX + '-action--text', text: 'Cancel' });
  cancel.addEventListener('click', function () {
    dialog.close();
  });
  useOther.setAttribute('form', PREFIX + '-other-form');
  other.id = PREFIX + '-other-form';
  controls.push(nameInput, emailInput, useOther, cancel);

  dialog.append(
    el('div', { class: PREFIX + '-head' }, [
      el('span', { html: LOGO, 'aria-hidden': 'true' }),
      el('h2', { id: titleId, text: 'Choose an account' }),
      el('p', { text: 'to continue to ' + location.host }),
      el('span', { class: PREFIX + '-note', text: 'Local stand-in: no real Google account is used' }),
    ]),
    list,
    other,
    el('div', { class: PREFIX + '-actions' }, [cancel, useOther]),
  );
  // Closing by Escape, Cancel or a finished sign-in all end here; the browser returns focus to the button.
  dialog.addEventListener('close', function () {
    dialog.remove();
    openDialog = null;
  });
  document.body.appendChild(dialog);
  openDialog = dialog;
  dialog.showModal();
}

// One Tap: Google shows its account chooser without a button click; the stand-in shows the same dialog.
function prompt(listener) {
  openChooser();
  if (typeof listener === 'function') {
    listener({
      isDisplayMoment: function () { return true; },
      isDisplayed: function () { return !!openDialog; },
      isNotDisplayed: function () { return !openDialog; },
      getNotDisplayedReason: function () { return openDialog ? undefined : 'unknown_reason'; },
      isSkippedMoment: function () { return false; },
      isDismissedMoment: function () { return false; },
      getMomentType: function () { return 'display'; },
    });
  }
}

google.accounts.id = {
  __standin: true,
  initialize: initialize,
  renderButton: renderButton,
  prompt: prompt,
  cancel: function () {
    if (openDialog) openDialog.close();
  },
  disableAutoSelect: function () {},
  storeCredential: function (_credential, callback) {
    if (typeof callback === 'function') callback();
  },
  revoke: function (_hint, callback) {
    if (typeof callback === 'function') callback({ successful: true });
  },
};
