// The sign-in box in the header: who is signed in (and a way out), or a box to paste a token into; links to the
// player's games and to the ratings. A `#token=` link signs in before the first page is drawn (this module runs
// before main.ts's router). The service is asked once whether it takes the token (ListMyGames, which needs only an
// identity): a token it refuses is dropped, saying why.
import { Code, ConnectError } from "@connectrpc/connect";
import { auth, client, describeError } from "./api";
import { errorCode } from "./errors";
import { h } from "./dom";
import "./players.css";
import { CHANGED, readToken, signedIn, signIn, signOut, takeExpiredNotice, takeTokenFromAddress,
  type Identity } from "./identity";

let notice = ""; // the last sign-in refused, in words
let boxOpen = false; // the sign-in box stays open while a token is refused

const linked = takeTokenFromAddress();
let toCheck: Identity | undefined;
if (linked !== undefined) {
  const read = readToken(linked);
  if (read instanceof Error) notice = `The sign-in link did not work: ${read.message}`;
  else {
    signIn(read);
    toCheck = read;
  }
}

// Whether the service takes `identity`; false (and signed out, with the reason shown) when it refuses it.
async function accepted(identity: Identity): Promise<boolean> {
  try {
    await client.listMyGames({ pageSize: 1 }, auth(identity.token));
    return true;
  } catch (e) {
    if (ConnectError.from(e).code !== Code.Unauthenticated) return true; // not about the token: keep it
    if (signedIn()?.token === identity.token) signOut();
    notice = `The sign-in was refused: ${describeError(e)} (${errorCode(e)})`; // the words, and the reason for a report
    window.dispatchEvent(new Event(CHANGED));
    return false;
  }
}

function who(identity: Identity): string {
  return identity.name ? `${identity.name} (${identity.playerId})` : identity.playerId;
}

export function mountSignIn(header: HTMLElement): void {
  const nav = h("nav.players", { "data-testid": "players-nav" });
  header.append(nav);

  function draw(): void {
    const identity = signedIn();
    if (takeExpiredNotice()) notice = "Your sign-in has expired: sign in again.";
    const links = [
      h("a", { href: "#leaderboard", "data-testid": "ratings-link" }, "Ratings"),
      identity ? h("a", { href: "#mine", "data-testid": "my-games-link" }, "My games") : "",
    ];
    if (identity) {
      nav.replaceChildren(...links,
        h("span.who", {}, "Signed in as ", h("strong", { "data-testid": "signed-in", "data-player": identity.playerId },
          who(identity))),
        h("button", { "data-testid": "sign-out", onclick: () => { notice = ""; signOut(); } }, "Sign out"));
      return;
    }
    const box = h("textarea", { id: "sign-in-token", rows: 3, placeholder: "paste your sign-in token (a JWT)",
      "data-testid": "sign-in-token" }) as HTMLTextAreaElement;
    const message = h("p.signin-message", { "data-testid": "sign-in-message" }, notice);
    const form = h("div.signin-box", { hidden: !boxOpen },
      box,
      h("button", { "data-testid": "sign-in-submit", onclick: async () => {
        const read = readToken(box.value);
        if (read instanceof Error) {
          message.textContent = read.message;
          return;
        }
        notice = "";
        if (await accepted(read)) {
          boxOpen = false;
          signIn(read);
        }
      } }, "Sign in"),
      h("p.small", {}, "Your site's sign-in gives you a token. On a local stack: ",
        h("code", {}, ".venv/bin/tabletop token YOUR_ID --name 'Your name'"),
        " prints a sign-in link. Playing without signing in works as ever."),
    );
    nav.replaceChildren(...links,
      h("button", { "data-testid": "sign-in", onclick: () => {
        boxOpen = !boxOpen;
        form.hidden = !boxOpen;
        box.focus();
      } }, "Sign in"),
      message, form);
  }

  window.addEventListener(CHANGED, draw);
  draw();
  if (toCheck) void accepted(toCheck);
}
