// Starts `symcert lsp` for IMP documents and passes it the `symcert.*` settings.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function options() {
  const c = vscode.workspace.getConfiguration("symcert");
  return {
    timeout: c.get("timeout"),
    maxStates: c.get("maxStates"),
    allBugs: c.get("allBugs"),
    debounce: c.get("debounce"),
  };
}

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("symcert").get("command");
  client = new LanguageClient(
    "symcert",
    "symcert",
    { command, args },
    {
      documentSelector: [{ language: "imp" }],
      initializationOptions: options(),
      synchronize: { configurationSection: "symcert" },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
