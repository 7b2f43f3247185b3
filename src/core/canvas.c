/* canvas.c — styled character grid (canvas.h). */
#include "parlour/canvas.h"

#include <stdio.h>
#include <string.h>
#include <utf8proc.h>

#include "parlour/alloc.h"

#define MAX_ROWS 200
#define MAX_COLS 400

static pl_cell *cell(pl_canvas *c, int r, int col)
{
    if (r < 0 || col < 0 || r >= MAX_ROWS || col >= MAX_COLS)
        return NULL;
    if (r >= c->caprows || col >= c->capcols) {
        int nr = c->caprows, nc = c->capcols;
        while (nr <= r)
            nr = nr ? nr * 2 : 32;
        while (nc <= col)
            nc = nc ? nc * 2 : 96;
        pl_cell *n = pl_calloc((size_t)nr * (size_t)nc, sizeof *n);
        if (!n) {
            c->oom = true;
            return NULL;
        }
        for (int i = 0; i < nr * nc; i++)
            n[i].ch[0] = ' ';
        for (int i = 0; i < c->caprows; i++)
            memcpy(&n[i * nc], &c->cells[i * c->capcols], sizeof *n * (size_t)c->capcols);
        pl_free(c->cells);
        c->cells = n;
        c->caprows = nr;
        c->capcols = nc;
    }
    if (r >= c->rows)
        c->rows = r + 1;
    if (col >= c->cols)
        c->cols = col + 1;
    return &c->cells[r * c->capcols + col];
}

int pl_canvas_put(pl_canvas *c, int row, int col, pl_style style, const char *s)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    while (*p) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t n = utf8proc_iterate(p, -1, &cp);
        char ch[5] = "?";
        int w = 1;
        if (n <= 0) {
            n = 1;
        } else {
            memcpy(ch, p, (size_t)n);
            ch[n] = '\0';
            w = utf8proc_charwidth(cp);
            if (w < 1)
                w = 1;
        }
        p += n;
        pl_cell *x = cell(c, row, col);
        if (x) {
            memcpy(x->ch, ch, sizeof ch);
            x->style = (unsigned char)style;
        }
        if (w == 2) {
            pl_cell *y = cell(c, row, col + 1);
            if (y) {
                y->ch[0] = '\0';
                y->style = (unsigned char)style;
            }
        }
        col += w;
    }
    return col;
}

int pl_canvas_printf(pl_canvas *c, int row, int col, pl_style style, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return pl_canvas_put(c, row, col, style, tmp);
}

void pl_canvas_to_text(const pl_canvas *c, pl_buf *out)
{
    for (int r = 0; r < c->rows; r++) {
        int last = c->cols - 1;
        const pl_cell *row = &c->cells[r * c->capcols];
        while (last >= 0 && row[last].ch[0] == ' ' && row[last].ch[1] == '\0')
            last--;
        for (int i = 0; i <= last; i++)
            pl_buf_puts(out, row[i].ch);
        pl_buf_putc(out, '\n');
    }
}

void pl_canvas_free(pl_canvas *c)
{
    pl_free(c->cells);
    memset(c, 0, sizeof *c);
}

int pl_text_width(const char *s)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    int w = 0;
    while (*p) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t n = utf8proc_iterate(p, -1, &cp);
        if (n <= 0) {
            n = 1;
            w++;
        } else {
            int cw = utf8proc_charwidth(cp);
            w += cw > 0 ? cw : 0;
        }
        p += n;
    }
    return w;
}
