// test_rules.mjs — each game's rules readable in the room (issue 31, §7;
// js/rules.js, web/rules/GAME.js): in each of the four games, at phone and
// desktop size, in English and Russian, a player who joined opens "Rules of
// this game" and reads a summary in sections (goal, a turn, special cases,
// the end), in the page's language, with no rule numbers or option keys; an
// option the room changed is marked "this room" in the sentence it changes.

import { run } from './harness.mjs';

const GAMES = {
  ur: { options: { pieces: '2' }, seats: 2, changed: { en: 'Pieces for each player: 2', ru: 'Фишек у каждого: 2' } },
  cbw: { options: { h: '3' }, seats: 4, changed: { en: 'The rectangle is 3 cards high.', ru: 'Его высота в картах — 3.' } },
  tamcuc: { options: { players: '2' }, seats: 2, changed: { en: 'Two players, 16 cards each', ru: 'Два игрока, по 16 карт' } },
  karuta: { options: { variant: 'chirashi', cards: '50', memo_s: '900' }, seats: 2, changed: { en: '50 cards are on the field', ru: 'На поле 50 карт' } },
};
const JARGON = [/\b[A-Z]{2,3}-R\d/, /\b[A-Z]{2}-[A-Z]\d/, /\bR\d+\b/, /\b(skiryuk|finkel|3lots|kyogi|upper_ms|memo_s|first_trick_ban|soldier_special)\b/, /=/];

run('rules', async (h) => {
  for (const lang of ['en', 'ru']) {
    for (const size of ['phone', 'desktop']) {
      const page = await h.page(size, { lang });
      for (const [game, g] of Object.entries(GAMES)) {
        await h.step(`${game}, ${size}, ${lang}: the rules box in the room`, async () => {
          await page.goto(h.url('/'));
          const seats = [{ kind: 'person' }].concat(Array.from({ length: g.seats - 1 }, () => ({ kind: 'ai', level: 'easy' })));
          const { room } = await h.createRoom(page, { game, options: g.options, seats });
          await h.join(page, room, lang === 'ru' ? 'Аня' : 'Ann');
          await page.locator('#rules-box summary').click();
          await page.locator('#rules-box .rules-part h3').first().waitFor();
          const got = await page.evaluate(() => {
            const box = document.getElementById('rules-box');
            return {
              summary: box.querySelector('summary').innerText,
              titles: [...box.querySelectorAll('.rules-part h3')].map((e) => e.innerText),
              text: box.querySelector('.rules-body').innerText,
              changed: [...box.querySelectorAll('.rule-opt.changed')].map((e) => e.textContent),
              items: box.querySelectorAll('.rules-part li').length,
            };
          });
          h.check(got.summary === (lang === 'ru' ? 'Правила этой игры' : 'Rules of this game'), 'the box: ' + got.summary);
          h.check(got.titles.length >= 3 && got.items >= 8, `sections: ${got.titles.join(' | ')} (${got.items} sentences)`);
          h.check(got.changed.some((x) => x.includes(g.changed[lang])) && got.changed.every((x) => x.includes(lang === 'ru' ? 'в этой комнате' : 'this room')),
            `the room's option marked where it changes a rule: ${JSON.stringify(got.changed)}`);
          const bad = JARGON.filter((re) => re.test(got.text));
          h.check(!bad.length, `no rule numbers or option keys (${bad.join(' ')})`);
          if (lang === 'ru') {
            const latin = got.text.match(/\b[A-Za-z]{3,}\b/g) || [];
            h.check(!latin.length, 'no English words on the Russian page: ' + latin.join(' '));
          }
          if (game === 'karuta') h.check(!/Competitive|Соревновательная/.test(got.text), 'only the room\'s variant');
          await page.locator('#rules-box').scrollIntoViewIfNeeded();
          h.expectLayout(await h.layout(page, { root: '#rules-box' }), `${game} rules, ${size}, ${lang}`);
          const file = await h.shot(page, `${game}-${size}-${lang}`);
          void file;
        });
      }
    }
  }
});
