/* "Check the deals" (RECORD.md, kozel-fair/1), in the browser, with Web Crypto: the
 * SHA-256 of the revealed server seed must be the commitment, and every round of the
 * game's record must be dealt exactly as the seeds say -- the first attempt of the round
 * whose hands need no redeal (RULES.md 3), each hand the same tiles, the bazaar the same
 * tiles in the same order.  The page's block ([data-fair]) names the record's address
 * and the words to say; nothing here trusts the page's seeds over the record's own.
 * docs/fair-deals.md does the same in a few lines of Python. */
(function () {
  "use strict";

  var SCHEME = "kozel-fair/1";
  var TILES = [];
  for (var a = 0; a <= 6; a++) for (var b = a; b <= 6; b++) TILES.push(a + "-" + b);

  function hexBytes(hex) {
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }
  function toHex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  function utf8(text) { return new TextEncoder().encode(text); }
  function tileName(name) {  // "4-1" and "1-4" are the same tile
    var ends = String(name).split("-").map(Number).sort();
    return ends[0] + "-" + ends[1];
  }

  // The random stream: HMAC-SHA256(seed, context + "\n" + i), read 4 bytes at a time.
  function Stream(key, context) {
    this.key = key; this.context = context; this.block = 0; this.words = [];
  }
  Stream.prototype.word = async function () {
    if (!this.words.length) {
      var message = utf8(this.context + "\n" + this.block);
      this.block += 1;
      var mac = new DataView(await crypto.subtle.sign("HMAC", this.key, message));
      for (var i = 0; i < 32; i += 4) this.words.push(mac.getUint32(i, false));
    }
    return this.words.shift();
  };
  Stream.prototype.uniform = async function (k) {
    var limit = 4294967296 - (4294967296 % k);
    for (;;) {
      var x = await this.word();
      if (x < limit) return x % k;
    }
  };

  async function attempt(key, round, tries, seeds) {
    var context = [SCHEME, String(round), String(tries)].concat(seeds).join("\n");
    var stream = new Stream(key, context);
    var order = TILES.slice();
    for (var i = order.length - 1; i > 0; i--) {
      var j = await stream.uniform(i + 1);
      var t = order[i]; order[i] = order[j]; order[j] = t;
    }
    var hands = [];
    for (var s = 0; s < seeds.length; s++) hands.push(order.slice(7 * s, 7 * s + 7));
    return {hands: hands, bazaar: order.slice(7 * seeds.length)};
  }

  function needsRedeal(hand) {  // RULES.md 3: 5 doubles, or 6 tiles sharing a value
    var doubles = 0, values = [0, 0, 0, 0, 0, 0, 0];
    hand.forEach(function (name) {
      var ends = name.split("-").map(Number);
      if (ends[0] === ends[1]) { doubles += 1; values[ends[0]] += 1; }
      else { values[ends[0]] += 1; values[ends[1]] += 1; }
    });
    return doubles >= 5 || values.some(function (n) { return n >= 6; });
  }

  async function dealOf(key, round, seeds) {
    for (var tries = 0; tries < 1000; tries++) {
      var deal = await attempt(key, round, tries, seeds);
      if (!deal.hands.some(needsRedeal)) return deal;
    }
    throw new Error("no deal");
  }

  function sameDeal(dealt, recorded) {
    if (!recorded || !Array.isArray(recorded.hands) || recorded.hands.length !== dealt.hands.length) return false;
    for (var s = 0; s < dealt.hands.length; s++) {
      var mine = dealt.hands[s].slice().sort().join(" ");
      var theirs = (recorded.hands[s] || []).map(tileName).sort().join(" ");
      if (mine !== theirs) return false;
    }
    return (recorded.bazaar || []).map(tileName).join(" ") === dealt.bazaar.join(" ");
  }

  // What the record says, checked: "ok" with the number of rounds, or what failed.
  async function check(record) {
    var fair = record.fair;
    if (!fair || !fair.server_seed || !Array.isArray(fair.client_seeds)) return {failed: "missing"};
    var seed = hexBytes(fair.server_seed);
    if (toHex(await crypto.subtle.digest("SHA-256", seed)) !== fair.commitment) {
      return {failed: "commitment"};
    }
    var key = await crypto.subtle.importKey("raw", seed, {name: "HMAC", hash: "SHA-256"},
                                            false, ["sign"]);
    var rounds = record.rounds || [];
    for (var r = 0; r < rounds.length; r++) {
      if (!sameDeal(await dealOf(key, r + 1, fair.client_seeds), rounds[r])) {
        return {failed: "round", round: r + 1};
      }
    }
    return {ok: true, rounds: rounds.length};
  }

  async function run(block) {
    var out = block.querySelector("[data-fair-result]");
    var words = block.dataset;
    out.textContent = words.textChecking;
    block.dataset.fairCheck = "running";
    try {
      if (!window.crypto || !crypto.subtle) throw new Error("no Web Crypto");
      var response = await fetch(block.dataset.recordUrl, {credentials: "same-origin"});
      var result = await check(await response.json());
      if (result.ok) {
        out.textContent = words.textOk.replace("{rounds}", result.rounds);
        block.dataset.fairCheck = "ok";
      } else {
        out.textContent = result.failed === "round"
          ? words.textRound.replace("{round}", result.round)
          : words.textCommitment;
        block.dataset.fairCheck = "mismatch";
      }
    } catch (error) {
      out.textContent = words.textCannot;
      block.dataset.fairCheck = "error";
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-action='fair-check']");
    if (!button) return;
    var block = button.closest("[data-fair]");
    if (block) run(block);
  });
  window.kozelFairCheck = check;  // for the tests, and for whoever wants it in a console
})();
