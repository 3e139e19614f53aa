/* The game room's feedback: a sound for a play, a draw and a knock; when it becomes this
 * page's turn a chime, the tab's title, a vibration on phones and (if the person allowed
 * it, and has not switched it off) a notification while the tab is hidden; a warning 5 seconds before the turn's time
 * runs out.  Sounds are made with the Web Audio API (no files), can be switched off
 * (remembered in localStorage) and are off for spectators until they switch them on.
 * Everything here reads the frames the server sent; nothing is decided here. */
(function () {
  "use strict";

  var room = null;          // the element around the room's fragments (data-room)
  var soundOn = false;
  var storageKey = "";

  // -- sounds ------------------------------------------------------------------------------
  // Each sound: notes of {f: Hz, to: Hz at the end, at: s, len: s, gain, type}.
  var SOUNDS = {
    play: [{f: 1400, to: 500, at: 0, len: 0.07, gain: 0.35, type: "triangle"}],
    draw: [{f: 420, to: 260, at: 0, len: 0.08, gain: 0.2, type: "sawtooth"},
           {f: 380, to: 240, at: 0.07, len: 0.08, gain: 0.15, type: "sawtooth"}],
    knock: [{f: 150, to: 90, at: 0, len: 0.1, gain: 0.7},
            {f: 150, to: 90, at: 0.16, len: 0.1, gain: 0.7}],
    turn: [{f: 660, at: 0, len: 0.45, gain: 0.25}, {f: 990, at: 0.13, len: 0.5, gain: 0.2}],
    hurry: [{f: 880, at: 0, len: 0.12, gain: 0.2, type: "square"},
            {f: 880, at: 0.22, len: 0.12, gain: 0.2, type: "square"}],
  };
  var audio = null;

  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(function () {});
    return audio;
  }

  function sound(name) {
    if (!soundOn) return;
    room.dataset.lastSound = name;  // what was played last (the browser tests read it)
    var context = audioContext();
    if (!context) return;
    var start = context.currentTime + 0.01;
    SOUNDS[name].forEach(function (note) {
      var oscillator = context.createOscillator();
      var gain = context.createGain();
      var at = start + note.at;
      oscillator.type = note.type || "sine";
      oscillator.frequency.setValueAtTime(note.f, at);
      if (note.to) oscillator.frequency.exponentialRampToValueAtTime(note.to, at + note.len);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(note.gain, at + 0.008);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + note.len);
      oscillator.connect(gain);
      gain.connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + note.len + 0.02);
    });
  }

  function showSoundSwitch() {
    var button = document.querySelector("[data-sound-toggle]");
    if (!button) return;
    button.setAttribute("aria-pressed", String(soundOn));
    button.classList.toggle("off", !soundOn);
  }

  function switchSound() {
    soundOn = !soundOn;
    try {
      localStorage.setItem(storageKey, soundOn ? "on" : "off");
    } catch (error) { /* a private window: remembered until the page closes */ }
    showSoundSwitch();
    if (soundOn) sound("play");
  }

  // -- notifications -------------------------------------------------------------------------
  // A switch: on while the browser allows notifications and the person has not switched
  // it off (remembered in localStorage); a refusal of the browser's is said beside it.
  var NOTIFY_KEY = "kozel.notify";

  function notifyWanted() {
    try {
      return localStorage.getItem(NOTIFY_KEY) !== "off";
    } catch (error) {
      return true;
    }
  }

  function notifyOn() {
    return "Notification" in window && Notification.permission === "granted" && notifyWanted();
  }

  function showNotifySwitch(why) {
    var button = document.querySelector("[data-notify-toggle]");
    if (!button) return;
    button.hidden = room.hasAttribute("data-spectator") || !("Notification" in window);
    button.setAttribute("aria-pressed", String(notifyOn()));
    var status = document.querySelector("[data-notify-status]");
    if (!status) return;
    status.textContent = why || "";
    status.hidden = !why;
  }

  function wantNotify(wanted) {
    try {
      localStorage.setItem(NOTIFY_KEY, wanted ? "on" : "off");
    } catch (error) { /* a private window: for this page only */ }
  }

  function switchNotify() {
    var button = document.querySelector("[data-notify-toggle]");
    if (!("Notification" in window) || !button) return;
    if (notifyOn()) {  // on: switched off, the browser's permission left as it is
      wantNotify(false);
      showNotifySwitch();
      return;
    }
    wantNotify(true);
    if (Notification.permission === "granted") {
      showNotifySwitch();
      return;
    }
    if (Notification.permission === "denied") {
      showNotifySwitch(button.dataset.blocked);
      return;
    }
    Notification.requestPermission().then(function (answer) {
      showNotifySwitch(answer === "granted" ? "" : answer === "denied" ? button.dataset.blocked
                       : button.dataset.notAllowed);
    }, function () {
      showNotifySwitch(button.dataset.notAllowed);
    });
  }

  function notify() {
    if (!notifyOn() || !document.hidden) return;
    try {
      new Notification(room.dataset.yourTurn, {body: room.dataset.yourTurnBody, tag: "kozel-turn"});
    } catch (error) { /* phones want a service worker for it: the title and vibration say it */ }
  }

  function vibrate(pattern) {
    if (navigator.vibrate) navigator.vibrate(pattern);
  }

  // -- what a new frame brings ------------------------------------------------------------------
  var seen = null;      // {version, mine} of the last frame looked at
  var baseTitle = document.title;
  var warned = null;    // the deadline the 5-second warning was given for

  function look() {
    var part = document.getElementById("room");
    var table = document.getElementById("table");
    if (!part || !table) return;
    var now = {version: table.dataset.version, mine: part.dataset.turnMine === "true",
               last: table.dataset.last};
    if (seen && now.version !== seen.version && now.last) sound(now.last);
    if (now.mine && seen && !seen.mine) {
      setTimeout(function () { sound("turn"); }, 180);
      vibrate([120, 60, 120]);
      notify();
    }
    document.title = now.mine ? room.dataset.yourTurn + " — " + baseTitle : baseTitle;
    seen = now;
  }

  function warnInTime() {
    var part = document.getElementById("room");
    var clock = document.querySelector("#table .clock[data-deadline]");
    if (!part || !clock || part.dataset.turnMine !== "true") return;
    var left = Number(clock.dataset.left);
    if (left > 0 && left <= 5 && warned !== clock.dataset.deadline) {
      warned = clock.dataset.deadline;
      sound("hurry");
      vibrate(200);
    }
  }

  function start() {
    room = document.querySelector("[data-room]");
    if (!room) return;
    var spectator = room.hasAttribute("data-spectator");
    storageKey = spectator ? "kozel.sound.spectator" : "kozel.sound.player";
    var stored = null;
    try {
      stored = localStorage.getItem(storageKey);
    } catch (error) { /* no storage: the default */ }
    soundOn = stored ? stored === "on" : !spectator;
    showSoundSwitch();
    showNotifySwitch();
    document.addEventListener("click", function (event) {
      if (event.target.closest("[data-sound-toggle]")) switchSound();
      if (event.target.closest("[data-notify-toggle]")) switchNotify();
    });
    // Browsers start sound only after a gesture: the first one on the page opens it.
    document.addEventListener("pointerdown", function () {
      if (soundOn) audioContext();
    }, {capture: true, once: true});
    document.addEventListener("htmx:wsAfterMessage", look);
    document.addEventListener("kozel:tick", warnInTime);
    look();
  }

  document.addEventListener("DOMContentLoaded", start);
})();
