/// The console's only stylesheet, served from the binary at `ConsoleLayout.stylesheetPath`.
/// Plain CSS: narrow screens stack the header and let wide tables scroll sideways; status is
/// always written as a word, colour only repeats it; focus is always visible for the keyboard.
public enum ConsoleStylesheet {
    public static let css = """
        :root { color-scheme: light dark; --fg: #1b1f23; --bg: #ffffff; --muted: #59636e; --line: #d0d7de; --accent: #0b5cad;
          --bad: #a40e26; --good: #116329; --warn: #7d4e00; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --accent: #58a6ff;
          --bad: #ff7b72; --good: #3fb950; --warn: #d29922; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 24px; padding: 8px 16px; border-bottom: 1px solid var(--line); }
        header .brand { margin: 0; font-weight: 600; }
        nav ul { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 0; padding: 0; list-style: none; }
        nav a[aria-current="page"] { font-weight: 600; text-decoration-thickness: 3px; }
        header form { margin-left: auto; }
        main { padding: 16px; max-width: 1200px; }
        h1 { font-size: 1.6rem; margin: 0 0 12px; }
        h2 { font-size: 1.25rem; margin: 24px 0 8px; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; margin: 8px 0 16px; min-width: 50%; }
        caption { text-align: left; font-weight: 600; padding: 4px 0; }
        th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        code, .mono { font-family: ui-monospace, monospace; font-size: 0.9em; overflow-wrap: break-word; }
        .status-good { color: var(--good); } .status-bad { color: var(--bad); font-weight: 600; } .status-warn { color: var(--warn); font-weight: 600; }
        .muted { color: var(--muted); }
        .notice { border: 1px solid var(--line); border-left: 6px solid var(--accent); padding: 8px 12px; margin: 12px 0; }
        .notice.error { border-left-color: var(--bad); }
        label { display: block; font-weight: 600; margin: 12px 0 4px; }
        input[type="password"], input[type="text"], input[type="date"], select, textarea { font: inherit; padding: 6px; width: 100%; max-width: 32rem;
          border: 1px solid var(--line); background: var(--bg); color: var(--fg); }
        button { font: inherit; padding: 6px 14px; margin: 8px 0; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
        header button { background: transparent; color: var(--accent); margin: 0; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; } dt { font-weight: 600; } dd { margin: 0; }
        @media (max-width: 640px) { body { font-size: 15px; } header form { margin-left: 0; } main { padding: 12px; } table { min-width: 100%; } }

        """
}
