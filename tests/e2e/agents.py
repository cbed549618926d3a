"""The agents of the end-to-end tests: for each, the pinned npm package, how it is pointed at the
mock model server, how one non-interactive turn is run, and what it is expected to do when its
hook fails (checked against the README's agent table by the harness).

A driver is a declaration: class attributes say the package, the environment, the files written
in the scratch HOME and the arguments of one turn; `Driver` does the rest. Strings in
`environment`, `home_files` and `turn` may name `{url}` (the mock's base URL), `{v1}` (its
OpenAI-style root, `{url}/v1`), `{home}` (the scratch HOME) and, in `turn`, `{prompt}`. Only
what no declaration says (Claude Code's approver, Cline's `auth` command) is a method.

Every driver runs the agent with its own permission prompts out of the way for shell commands
(Claude Code `--allowedTools Bash`, Gemini CLI `--approval-mode yolo`, Codex
`--dangerously-bypass-approvals-and-sandbox`, Droid `--skip-permissions-unsafe`), so riskgate's
hook is the only gate: a command that did not run was stopped by riskgate's answer, never by the
agent's own rules.
"""

import json
import os
import re
import subprocess
import sys

# What happens to the tool call on each hook failure, for the two usual kinds of agent.
FAILS_OPEN = {"crash": "ran", "garbage": "ran", "slow": "ran"}
FAILS_CLOSED = {"crash": "blocked", "garbage": "blocked", "slow": "blocked"}

# The XDG directories inside the scratch HOME (agents that follow XDG rather than HOME).
XDG = {
    "XDG_CONFIG_HOME": "{home}/.config",
    "XDG_DATA_HOME": "{home}/.local/share",
    "XDG_CACHE_HOME": "{home}/.cache",
    "XDG_STATE_HOME": "{home}/.local/state",
}


def gemini_settings(auth, **security):
    """The user settings of Gemini CLI and its fork Qwen Code: the auth type, no update, no
    usage statistics."""
    return {
        "security": dict({"auth": {"selectedType": auth}}, **security),
        "general": {"disableAutoUpdate": True},
        "privacy": {"usageStatisticsEnabled": False},
    }


class Driver:
    name = ""
    title = ""
    package = ""
    version = ""
    bin_name = ""
    # The executable inside the npm prefix, when it is not `node_modules/.bin/<bin_name>`.
    exe = ""
    # What a person's decision looks like in this agent: "prompt" (riskgate's ask reaches the
    # agent's prompt), "deny" (the agent cannot ask: riskgate denies).
    ask = "deny"
    # Whether the agent reports a run tool call back to riskgate (PostToolUse / AfterTool),
    # so that an approval given in the agent is remembered for the session.
    reports_approvals = False
    # What the agent does with the tool call when the hook fails, per failure mode:
    # "blocked" or "ran".
    on_failure = FAILS_OPEN
    # Arguments of `riskgate install AGENT` (the project's settings by default).
    install_args = []
    # The hook's time limit in seconds (the one `riskgate install` writes, else the agent's
    # default) when above 30: the slow scenario's hook sleeps 15 s past it.
    hook_limit = None
    # Why the approval scenario does not apply, when it does not.
    approve_na = "cannot ask"
    # Whether a refused call goes back to the model as a tool result (with riskgate's reason).
    reason_to_model = True
    # The agent's environment for every turn (beside PATH, HOME and the harness's own).
    environment = {}
    # Files written under the scratch HOME after `riskgate install`: relative path → a JSON
    # value (written as JSON) or a string (written as it is).
    home_files = {}
    # One non-interactive turn: the arguments after the executable.
    turn = []
    # How a turn's stdout names the session to resume: "json" (its `session_id`), a regular
    # expression with one group, or None (no resuming).
    session = None

    def __init__(self, ctx):
        self.ctx = ctx

    def fill(self, value):
        """`value` with the placeholders of the scratch world put in."""
        if isinstance(value, str):
            url = self.ctx.base_url
            return value.replace("{url}", url).replace("{v1}", f"{url}/v1").replace("{home}", self.ctx.home)
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        return value

    def env(self):
        return self.fill(self.environment)

    def setup(self):
        """Write the agent's own configuration (after `riskgate install`)."""
        for rel, content in self.home_files.items():
            write(os.path.join(self.ctx.home, *rel.split("/")), self.fill(content))

    def argv(self, prompt, approve=False, resume=None):
        return [self.ctx.agent_bin, *(prompt if a == "{prompt}" else self.fill(a) for a in self.turn)]

    def session_of(self, stdout):
        if self.session == "json":
            try:
                return json.loads(stdout).get("session_id")
            except (ValueError, AttributeError):
                return None
        if self.session:
            m = re.search(self.session, stdout or "")
            return m.group(1) if m else None
        return None


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        if isinstance(content, str):
            f.write(content)
        else:
            json.dump(content, f, indent=2)


class Claude(Driver):
    name = "claude"
    title = "Claude Code"
    package = "@anthropic-ai/claude-code"
    version = "2.1.330"
    bin_name = "claude"
    ask = "prompt"
    reports_approvals = True
    # Half a JSON answer with exit 0 is read as plain text and the tool runs (2.1.330:
    # "Hook output starts with { but is not a JSON object, treating as plain text").
    on_failure = {"crash": "blocked", "garbage": "ran", "slow": "blocked"}
    environment = {
        "ANTHROPIC_BASE_URL": "{url}",
        "ANTHROPIC_API_KEY": "sk-ant-e2e-dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
    }
    turn = ["-p", "{prompt}", "--output-format", "json", "--allowedTools", "Bash"]
    session = "json"

    def setup(self):
        # The person who approves: an MCP server answering Claude's permission prompt.
        write(self.ctx.path("mcp.json"), {"mcpServers": {"e2e": {
            "command": sys.executable,
            "args": [os.path.join(self.ctx.tests, "approver_mcp.py")],
            "env": {"E2E_APPROVALS": self.ctx.approvals},
        }}})

    def argv(self, prompt, approve=False, resume=None):
        args = super().argv(prompt)
        if approve:
            args += ["--mcp-config", self.ctx.path("mcp.json"),
                     "--permission-prompt-tool", "mcp__e2e__approve"]
        if resume:
            args += ["--resume", resume]
        return args


class Gemini(Driver):
    name = "gemini"
    title = "Gemini CLI"
    package = "@google/gemini-cli"
    version = "0.61.0"
    bin_name = "gemini"
    environment = {
        "GEMINI_API_KEY": "e2e-dummy",
        "GOOGLE_GEMINI_BASE_URL": "{url}",
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }
    home_files = {".gemini/settings.json": gemini_settings("gemini-api-key")}
    turn = ["-p", "{prompt}", "--output-format", "json", "--approval-mode", "yolo"]


class Codex(Driver):
    name = "codex"
    title = "Codex CLI"
    package = "@openai/codex"
    version = "0.169.0"
    bin_name = "codex"
    environment = {"E2E_MOCK_API_KEY": "e2e-dummy", "CODEX_HOME": "{home}/.codex"}
    home_files = {".codex/config.toml": (
        'model = "mock-model"\n'
        'model_provider = "e2e"\n'
        "\n"
        "[model_providers.e2e]\n"
        'name = "e2e mock"\n'
        'base_url = "{v1}"\n'
        'env_key = "E2E_MOCK_API_KEY"\n'
        'wire_api = "responses"\n'
    )}
    # --trust: the scratch project's .codex/ is read; --dangerously-bypass-hook-trust: the
    # hook riskgate just installed runs without the interactive /hooks review.
    turn = ["exec", "--trust", "--dangerously-bypass-hook-trust",
            "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", "--json", "{prompt}"]
    session = r'"thread_id":"([^"]+)"'


class Copilot(Driver):
    name = "copilot"
    title = "Copilot CLI"
    package = "@github/copilot"
    version = "1.0.102"
    bin_name = "copilot"
    ask = "prompt"
    on_failure = {"crash": "blocked", "garbage": "ran", "slow": "ran"}
    # 1.0.102 defers a repository's hooks (.github/hooks/*.json) until the folder is trusted in
    # an interactive session and never loads them in a `copilot -p` turn (its debug log shows
    # only the user's hooks); the user's ~/.copilot/hooks/ are loaded everywhere.
    install_args = ["--user"]
    approve_na = "no one to approve in `copilot -p`"
    # BYOK: an OpenAI-compatible provider, no GitHub sign-in; offline mode keeps the CLI from
    # reaching GitHub's services.
    environment = {
        "COPILOT_PROVIDER_BASE_URL": "{v1}",
        "COPILOT_PROVIDER_TYPE": "openai",
        "COPILOT_PROVIDER_API_KEY": "e2e-dummy",
        "COPILOT_MODEL": "gpt-4.1",
        "COPILOT_OFFLINE": "true",
        "COPILOT_AUTO_UPDATE": "false",
    }
    turn = ["-p", "{prompt}", "--allow-all-tools", "--no-color"]


class Qwen(Driver):
    name = "qwen"
    title = "Qwen Code"
    package = "@qwen-code/qwen-code"
    version = "0.24.4"
    bin_name = "qwen"
    environment = {
        "OPENAI_BASE_URL": "{v1}",
        "OPENAI_API_KEY": "e2e-dummy",
        "OPENAI_MODEL": "mock-model",
        "QWEN_CODE_TRUST_WORKSPACE": "true",
    }
    home_files = {".qwen/settings.json": gemini_settings("openai", folderTrust={"enabled": False})}
    turn = ["-p", "{prompt}", "--output-format", "json", "--approval-mode", "yolo"]


def opencode_config(config_dir, config_file):
    """OpenCode's (and Kilo's) user configuration: an OpenAI-compatible provider at the mock,
    shell commands and edits allowed (riskgate's plugin is the gate)."""
    return {f".config/{config_dir}/{config_file}": {
        "provider": {"e2e": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "e2e mock",
            "options": {"baseURL": "{v1}", "apiKey": "e2e-dummy"},
            "models": {"mock-model": {"name": "mock model", "tool_call": True}},
        }},
        "model": "e2e/mock-model",
        "small_model": "e2e/mock-model",
        "autoupdate": False,
        "share": "disabled",
        "permission": {"bash": "allow", "edit": "allow"},
    }}


class OpenCode(Driver):
    name = "opencode"
    title = "OpenCode"
    package = "opencode-ai"
    version = "1.18.33"
    bin_name = "opencode"
    on_failure = FAILS_CLOSED
    environment = dict(XDG, OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_SHARE="1")
    home_files = opencode_config("opencode", "opencode.json")
    turn = ["run", "{prompt}"]


class Kilo(OpenCode):
    # OpenCode's runtime under another name (docs/protocols.md). 7.7.7: the newest
    # @kilocode/cli whose platform package (@kilocode/cli-linux-x64) the registry has; 7.8.1's
    # install fails ("failed to install the right Kilo CLI package").
    name = "kilo"
    title = "Kilo Code CLI"
    package = "@kilocode/cli"
    version = "7.7.7"
    bin_name = "kilo"
    home_files = opencode_config("kilo", "kilo.json")


class Cline(Driver):
    name = "cline"
    title = "Cline CLI"
    package = "cline"
    version = "3.0.65"
    bin_name = "cline"
    # riskgate's deny is Cline's `cancel`: the task ends, the model is not called again.
    reason_to_model = False
    turn = ["--json", "--auto-approve", "true", "-t", "150", "{prompt}"]

    def setup(self):
        # `cline auth` with an OpenAI-compatible provider at the mock (no Cline account)
        subprocess.run(
            [self.ctx.agent_bin, "auth", "-p", "openai", "-k", "e2e-dummy", "-m", "mock-model",
             "-b", self.fill("{v1}")],
            cwd=self.ctx.proj, env=self.ctx.env_fn(), stdin=subprocess.DEVNULL,
            capture_output=True, timeout=120, check=True,
        )


class Droid(Driver):
    # `@factory/cli` 0.225.1 (the registry's newest) needs `@factory/cli-linux-x64@0.225.1`,
    # which the registry does not have; the platform package 0.225.2 is the whole CLI (one
    # compiled binary, `bin/droid`), so the harness installs that.
    name = "droid"
    title = "Factory Droid"
    package = "@factory/cli-linux-x64"
    version = "0.225.2"
    bin_name = "droid"
    exe = "node_modules/@factory/cli-linux-x64/bin/droid"
    # `riskgate install droid` sets no `timeout`: Droid's default is 60 s.
    hook_limit = 60
    # Airgap Mode: no Factory account and no Factory service, only BYOK custom models.
    environment = {"FACTORY_AIRGAP_ENABLED": "true", "FACTORY_DISABLE_KEYRING": "1",
                   "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"}
    home_files = {".factory/settings.json": {"customModels": [{
        "model": "mock-model", "displayName": "mock", "provider": "anthropic",
        "baseUrl": "{url}", "apiKey": "e2e-dummy", "maxOutputTokens": 4096,
    }]}}
    # `custom:<displayName>-<index>` names a custom model.
    turn = ["exec", "--skip-permissions-unsafe", "-m", "custom:mock-0", "-o", "json", "{prompt}"]
    session = "json"


class Augment(Driver):
    # Auggie has no model endpoint of its own to configure: every turn goes through Augment's
    # backend (`chat-stream`, even with a bring-your-own-key model). Its session
    # (`AUGMENT_SESSION_AUTH`, `{accessToken, tenantURL, scopes}`) names the backend, so the
    # mock is the tenant and speaks the calls a `--print` turn makes (tests/e2e/mockmodel.py).
    name = "augment"
    title = "Augment (Auggie CLI)"
    package = "@augmentcode/auggie"
    version = "0.36.0"
    bin_name = "auggie"
    # `riskgate install augment` sets no `timeout`: Auggie's default is 60 s.
    hook_limit = 60
    environment = {
        "AUGMENT_SESSION_AUTH": json.dumps({"accessToken": "e2e-dummy", "tenantURL": "{url}/",
                                            "scopes": ["read", "write"]}),
        "AUGMENT_DISABLE_AUTO_UPDATE": "1",
    }
    turn = ["--print", "--output-format", "json", "--permission", "launch-process:allow", "{prompt}"]
    session = "json"


DRIVERS = {d.name: d for d in (Claude, Gemini, Codex, Copilot, Qwen, OpenCode, Kilo, Cline, Droid, Augment)}
