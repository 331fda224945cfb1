import { describe, expect, it } from 'vitest';
import { linksInNewTab } from './timer-preview';

describe('the digest preview’s links', () => {
  it('open in a new tab: a <base target="_blank"> first in the email’s head, its HTML otherwise as sent', () => {
    const html =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3 new events</title></head><body><a href="https://a.example/">A</a></body></html>';
    expect(linksInNewTab(html)).toBe(
      '<!doctype html><html lang="en"><head><base target="_blank"><meta charset="utf-8"><title>3 new events</title></head><body><a href="https://a.example/">A</a></body></html>',
    );
  });

  it('without a head, after the doctype, else first', () => {
    expect(linksInNewTab('<!DOCTYPE html><p><a href="/x">x</a></p>')).toBe(
      '<!DOCTYPE html><base target="_blank"><p><a href="/x">x</a></p>',
    );
    expect(linksInNewTab('<p>hi</p>')).toBe('<base target="_blank"><p>hi</p>');
  });
});
