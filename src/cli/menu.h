/* menu.h — the play screen's legal list in the player's language
 * (`menu_`): each legal action as the notation the player types and, in
 * Russian, Japanese or Vietnamese, what it does in the catalogue's words
 * ("enter: 新しい駒 → A3、もう一度投げる"), worded from the action's fields
 * (game.h, action_fields; docs/web-views.md "Action fields") as the
 * browser words its buttons (the actionWords of web/games). English keeps
 * the game's own text (pl_format_action_long), byte for byte.
 *
 * Plain text, no curses, so that the tests check the words
 * (tests/test_property_tell.c, tests/test_unit_words.c). Single-threaded
 * like its callers; no globals. */
#ifndef CLI_MENU_H
#define CLI_MENU_H

#include "parlour/game.h"
#include "parlour/options.h"
#include "parlour/words.h"

/* Appends what `seat`'s legal action `a` in `st` does, in `lang`, from the
 * catalogue's "act.GAME.*" keys (Ur, City Behind Walls, Tam Cúc, karuta):
 * "新しい駒 → A3、もう一度投げる", "đánh úp một lá". Returns 0, or -1 with
 * nothing appended when the game has no fields for `a` (a chance outcome)
 * or no words for them. Never changes `st`; cannot fail otherwise
 * (`out->oom` on no memory). */
int menu_words(const pl_game *g, const void *st, int seat, pl_action a, pl_lang lang, pl_buf *out);

/* Appends the legal list's text of `a` (after its number): in English the
 * game's own (pl_format_action_long: "enter → A3, rolls again"); in
 * another language the notation to type, then what it does
 * ("enter: 新しい駒 → A3、もう一度投げる", the catalogue's "act.item"), or
 * the notation alone when menu_words has no words for it. Never changes
 * `st`; cannot fail (`out->oom`). */
void menu_item(const pl_game *g, const void *st, int seat, pl_action a, pl_lang lang, pl_buf *out);

/* Appends the rules page's summary of game `g` in `lang` for the options
 * `o` in force, from the catalogue's "rules.GAME.*" keys (the browser's
 * rules summaries, web/rules/GAME.js, copied): each section's title, then
 * its items, one a line after "- ", those an option decides in the words
 * of the option's value ("rules.GAME.SS.II.opt.KEY.VALUE", else
 * ".opt.KEY" with {v}; a sentence "-": none), sections and items under ".if.KEY.VALUE" only
 * when the option has that value; a blank line between sections. Returns
 * 0, or -1 with nothing appended when the catalogue has no summary of
 * `g`. Cannot fail otherwise (`out->oom`). */
int menu_summary(const pl_game *g, const pl_opts *o, pl_lang lang, pl_buf *out);

#endif
