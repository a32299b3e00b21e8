/* Speaker notes on a second terminal. The Present screen listens on a
 * Unix socket, $XDG_RUNTIME_DIR/redscope/notes.sock (without that
 * variable: /tmp/redscope-UID/notes.sock, a folder only its user may
 * enter), and sends each notes pane the slide's notes whenever the slide
 * or its build changes; `redscope present --notes` shows them with the
 * clock, and waits for a deck where none is shown yet. One message a
 * packet (SOCK_SEQPACKET), at most UI_NOTES_MAX bytes, text lines:
 * "redscope-notes 1", "started EPOCH", "slide K OF PART PARTS", "title T",
 * then the notes. Nothing here blocks the presenter: a pane that does not
 * take a message at once is let go. */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "core/text.h"
#include "present.h"
#include "lecture/deck.h"

enum { UI_NOTES_MAX = 16384 };

int ui_notes_path(char *buf, size_t len)
{
    const char *run = getenv("XDG_RUNTIME_DIR");
    char dir[4096];
    if (run && run[0] == '/')
        snprintf(dir, sizeof dir, "%s/redscope", run);
    else
        snprintf(dir, sizeof dir, "/tmp/redscope-%u", (unsigned)getuid());
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) return -1;
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077))
        return -1; /* not ours alone: another user could read or answer */
    const int n = snprintf(buf, len, "%s/notes.sock", dir);
    return n > 0 && (size_t)n < len && (size_t)n < sizeof((struct sockaddr_un *)0)->sun_path ? 0
                                                                                             : -1;
}

static int listen_on(ui_present_state *p)
{
    if (ui_notes_path(p->sock, sizeof p->sock) != 0) return -1;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", p->sock);
    /* a probe that never waits: a deck whose queue is full is a deck */
    const int probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (probe < 0) return -1;
    const int up = connect(probe, (struct sockaddr *)&sa, sizeof sa) == 0 ? 0 : errno;
    close(probe);
    if (up != ENOENT && up != ECONNREFUSED) return -1; /* another deck: its notes stay its own */
    if (up == ECONNREFUSED) unlink(p->sock);           /* a deck that ended without removing it */
    const int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 4) != 0) {
        close(fd);
        return -1;
    }
    chmod(p->sock, 0600);
    return fd;
}

static void message(const ui_present_state *p, const rs_slide *s, int count, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(
        buf, len, "redscope-notes 1\nstarted %ld\nslide %d %d %d %d\ntitle %s\n", p->started,
        p->slide, count, p->part < s->nparts ? p->part : s->nparts, s->nparts, s->title);
    for (int i = 0; i < s->nnotes && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s\n", s->notes[i]);
}

void ui_notes_serve(ui_app *a, const rs_slide *s, int count)
{
    ui_present_state *p = a->pres;
    const long now = (long)time(NULL);
    if (p->notes_up == 0 || (p->notes_up == -1 && now - p->notes_tried >= 2)) {
        /* again every 2 s where another deck held it: it may have ended */
        p->notes_tried = now;
        p->listen_fd = listen_on(p);
        p->notes_up = p->listen_fd >= 0 ? 1 : -1;
        for (int i = 0; i < 4; i++) p->clients[i] = -1;
    }
    if (p->notes_up != 1) return;
    static char msg[UI_NOTES_MAX];
    message(p, s, count, msg, sizeof msg);
    const int changed = strcmp(msg, p->sent) != 0;
    int fresh[4] = {0};
    for (int k = 0; k < 4; k++) { /* a pane that left: its place free again */
        struct pollfd pf = {p->clients[k], POLLIN, 0};
        char c;
        if (p->clients[k] >= 0 && poll(&pf, 1, 0) > 0 &&
            ((pf.revents & (POLLHUP | POLLERR)) ||
             recv(p->clients[k], &c, 1, MSG_DONTWAIT | MSG_PEEK) == 0)) {
            close(p->clients[k]);
            p->clients[k] = -1;
        }
    }
    for (int fd, tries = 0;
         tries < 8 && (fd = accept4(p->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;
         tries++) {
        int k = 0;
        while (k < 4 && p->clients[k] >= 0) k++;
        if (k == 4) {
            close(fd); /* four panes at most */
            continue;
        }
        p->clients[k] = fd;
        fresh[k] = 1;
    }
    for (int k = 0; k < 4; k++) {
        if (p->clients[k] < 0 || (!changed && !fresh[k])) continue;
        if (send(p->clients[k], msg, strlen(msg), MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
            close(p->clients[k]);
            p->clients[k] = -1;
        }
    }
    snprintf(p->sent, sizeof p->sent, "%s", msg);
}

void ui_notes_close(ui_app *a)
{
    ui_present_state *p = a->pres;
    if (!p || p->notes_up != 1) return;
    for (int k = 0; k < 4; k++)
        if (p->clients[k] >= 0) close(p->clients[k]);
    close(p->listen_fd);
    unlink(p->sock);
    p->notes_up = 0;
}

/* ---- the notes pane: `redscope present --notes` ---- */

static volatile sig_atomic_t notes_stop;
static void on_stop(int sig)
{
    (void)sig;
    notes_stop = 1;
}

static int columns(void)
{
    struct winsize ws;
    return ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
}

/* One pane: the header with the clock, the title, the notes wrapped. */
static void show(const char *msg, int tty)
{
    long started = 0;
    int k = 0, of = 0, part = 0, parts = 0;
    char title[400] = "";
    const char *body = msg;
    for (int i = 0; i < 4 && body; i++) {
        sscanf(body, "started %ld", &started);
        sscanf(body, "slide %d %d %d %d", &k, &of, &part, &parts);
        if (strncmp(body, "title ", 6) == 0) sscanf(body + 6, "%399[^\n]", title);
        body = strchr(body, '\n');
        if (body) body++;
    }
    const long now = (long)time(NULL), t = started > 0 && now >= started ? now - started : 0;
    struct tm tm;
    char clock[16] = "";
    const time_t tt = (time_t)now;
    if (localtime_r(&tt, &tm)) strftime(clock, sizeof clock, "%H:%M:%S", &tm);
    if (tty) fputs("\033[H\033[2J", stdout);
    printf("redscope notes  slide %d/%d  part %d/%d  %ld:%02ld elapsed  %s\n\n", k,
           of > 0 ? of - 1 : 0, part, parts, t / 60, t % 60, clock);
    printf("%s\n\n", title);
    const int w = columns();
    for (const char *l = body ? body : ""; *l;) {
        const size_t len = strcspn(l, "\n");
        size_t at = 0;
        while (at < len) { /* wrapped at a space where one is near */
            size_t cut = len - at > (size_t)w - 2 ? (size_t)w - 2 : len - at;
            if (at + cut < len)
                for (size_t b = cut; b > cut / 2; b--)
                    if (l[at + b] == ' ') {
                        cut = b;
                        break;
                    }
            while (at + cut < len && cut > 1 && ((unsigned char)l[at + cut] & 0xc0) == 0x80) cut--;
            printf("%s%.*s\n", at ? "  " : "", (int)cut, l + at);
            at += cut;
            while (at < len && l[at] == ' ') at++;
        }
        l += len;
        if (*l == '\n') l++;
    }
    fflush(stdout);
}

int ui_notes_main(void)
{
    char path[108];
    if (ui_notes_path(path, sizeof path) != 0) {
        fprintf(stderr, "redscope: no folder for the notes' socket: set XDG_RUNTIME_DIR to a "
                        "folder only you can enter\n");
        return 7;
    }
    struct sigaction sa = {.sa_handler = on_stop};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    const int tty = isatty(1);
    static char msg[UI_NOTES_MAX + 1], safe[6 * UI_NOTES_MAX + 1];
    int fd = -1, said_wait = 0;
    while (!notes_stop) {
        if (fd < 0) {
            struct sockaddr_un sa_un = {.sun_family = AF_UNIX};
            snprintf(sa_un.sun_path, sizeof sa_un.sun_path, "%s", path);
            fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
            if (fd >= 0 && connect(fd, (struct sockaddr *)&sa_un, sizeof sa_un) != 0) {
                close(fd);
                fd = -1;
            }
            if (fd < 0) {
                if (!said_wait)
                    printf("%sredscope notes: waiting for a deck (redscope present) on %s; "
                           "Ctrl-C ends\n",
                           tty ? "\033[H\033[2J" : "", path);
                fflush(stdout);
                said_wait = 1;
                sleep(1);
                continue;
            }
            msg[0] = '\0';
        }
        struct pollfd pf = {fd, POLLIN, 0};
        const int r = poll(&pf, 1, 1000);
        if (r > 0) {
            const ssize_t got = recv(fd, msg, UI_NOTES_MAX, 0);
            if (got <= 0) { /* the deck ended, or had no place for another pane */
                close(fd);
                fd = -1;
                said_wait = 0;
                sleep(1);
                continue;
            }
            msg[got] = '\0';
            /* seen, never obeyed: controls, bidirectional marks and bytes
             * that are not UTF-8 escaped, a line at a time */
            rs_text_safe(msg, 1, safe, sizeof safe);
            show(safe, tty);
        } else if (r == 0 && tty && msg[0]) {
            show(safe, tty); /* the clock */
        }
    }
    if (fd >= 0) close(fd);
    return notes_stop ? 0 : 0;
}
