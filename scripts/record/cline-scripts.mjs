// The scripts fake-openai-chat.mjs plays to Cline (scripts/record/cline.sh): Cline 3.0's tools
// are read_files, search_codebase, run_commands, editor (which also creates a file), spawn_agent,
// fetch_web_content, ask_question and the team_* tools; it has no tool that only lists files.
//   SCRIPTS=scripts/record/cline-scripts.mjs SCRIPT=main|heldout node scripts/record/fake-openai-chat.mjs
export function scripts(abs) {
  const SCRIPTS = {
    main: [
      {
        reasoning: "Read the notes before changing them.",
        text: "Reading the notes first.",
        calls: [["read_files", { files: [{ path: abs("notes.txt") }] }]],
      },
      { calls: [["read_files", { files: [{ path: abs("missing.txt") }] }]] },
      { calls: [["search_codebase", { queries: ["TODO"] }]] },
      { calls: [["editor", { path: abs("notes.txt"), old_text: "hello there", new_text: "hello, world" }]] },
      { calls: [["editor", { path: abs("out/result.txt"), new_text: "result: ok\nlines: 2\n" }]] },
      {
        text: "Two commands: one fails, one succeeds.",
        calls: [
          ["run_commands", { commands: ["cat missing-file.txt"] }],
          ["run_commands", { commands: ["ls && echo hi && wc -l notes.txt"] }],
        ],
      },
      {
        calls: [["spawn_agent", {
          systemPrompt: "You count TODO lines in files and answer with the number.",
          task: "[sub-agent] Count the TODO lines in notes.txt.",
        }]],
      },
    ],
    // The held-out run: other files, another order, several inputs in one call, no sub-agent.
    heldout: [
      { calls: [["run_commands", { commands: ["ls src", "node --check src/app.js && echo syntax-ok", "ls does-not-exist"] }]] },
      { text: "Let me look at the app and the readme.", calls: [["read_files", { files: [{ path: abs("src/app.js") }, { path: abs("README.md"), start_line: 1, end_line: 2 }] }]] },
      { calls: [["editor", { path: abs("src/app.js"), old_text: "console.log('hi')", new_text: "console.log('hello')" }]] },
      { calls: [["editor", { path: abs("src/app.js"), old_text: "no such text", new_text: "x" }]] },
      { calls: [["editor", { path: abs("CHANGELOG.md"), new_text: "# Changes\n\n- say hello\n" }]] },
      { calls: [["search_codebase", { queries: ["hello", "TODO"] }]] },
    ],
    sub: [
      { text: "Reading notes.txt.", calls: [["read_files", { files: [{ path: abs("notes.txt") }] }]] },
    ],
  };
  const FINAL = {
    main: "Done: read notes.txt, failed to read missing.txt, searched for TODO, fixed the greeting, wrote out/result.txt, a failing cat and a passing ls, and asked a sub-agent to count the TODOs.",
    heldout: "Done: checked the app, read it with the README, said hello, failed one edit, wrote CHANGELOG.md and searched.",
    sub: "There are 2 TODO lines in notes.txt.",
  };
  return { SCRIPTS, FINAL };
}
