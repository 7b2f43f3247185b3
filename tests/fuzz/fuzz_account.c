/* fuzz_account.c — the bodies of the account calls (issue 33 §5;
 * net_account_body, net.h): the input's first byte picks the call (signup,
 * signin, signout, password, delete, or a name that is none), the rest is the
 * body, any bytes. Checked: an accepted body has exactly the call's fields
 * (strings without NUL, as jansson gave them) and says them again when
 * written back as JSON and read again (the same fields); a refused one leaves
 * `out` empty and says why; nothing leaks (ASan). */
#include <jansson.h>
#include <string.h>

#include "fuzz.h"
#include "net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const calls[] = {"signup", "signin", "signout", "password", "delete", "me"};
    if (size < 1)
        return 0;
    int k = data[0] % 6;
    const char *call = calls[k];
    const char *body = (const char *)data + 1;
    size_t len = size - 1;
    net_acct_fields f;
    pl_buf why = {0};
    int rc = net_account_body(call, body, len, &f, &why);
    FUZZ_CHECK(rc == 0 || rc == -1 || rc == -2, "rc %d", rc);
    if (rc != 0) {
        FUZZ_CHECK(!f.name && !f.password && !f.new_password, "a refusal left fields");
        FUZZ_CHECK(rc == -2 || why.len > 0, "a refusal says why");
        FUZZ_CHECK(k != 2 || len > 0, "sign-out's empty body refused");
        pl_buf_free(&why);
        return 0;
    }
    FUZZ_CHECK(k != 5, "an unknown call accepted");
    FUZZ_CHECK(len <= NET_MAX_BODY, "a body of %zu bytes accepted", len);
    FUZZ_CHECK(!!f.name == (k <= 1), "name");
    FUZZ_CHECK(!!f.password == (k != 2), "password");
    FUZZ_CHECK(!!f.new_password == (k == 3), "new_password");
    /* written back and read again: the same fields */
    json_t *j = json_object();
    if (f.name)
        json_object_set_new(j, "name", json_string(f.name));
    if (f.password)
        json_object_set_new(j, k == 3 ? "old_password" : "password", json_string(f.password));
    if (f.new_password)
        json_object_set_new(j, "new_password", json_string(f.new_password));
    char *again = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (again && strlen(again) <= NET_MAX_BODY) {
        net_acct_fields g;
        pl_buf w = {0};
        int rc2 = net_account_body(call, again, strlen(again), &g, &w);
        FUZZ_CHECK(rc2 == 0, "its own fields refused: %s", pl_buf_str(&w));
        FUZZ_CHECK((!f.name || !strcmp(f.name, g.name)) && (!f.password || !strcmp(f.password, g.password)) &&
                       (!f.new_password || !strcmp(f.new_password, g.new_password)),
                   "the fields changed");
        net_account_body_free(&g);
        pl_buf_free(&w);
    }
    free(again);
    net_account_body_free(&f);
    pl_buf_free(&why);
    return 0;
}
