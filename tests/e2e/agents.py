"""The agents of the end-to-end tests: for each, the pinned npm package, how it is pointed at the
mock model server, how one non-interactive turn is run, and what it is expected to do when its
hook fails (checked against the README's agent table by the harness).

Every driver runs the agent with its own permission prompts out of the way for shell commands
(Claude Code `--allowedTools Bash`, Gemini CLI `--approval-mode yolo`, Codex
`--dangerously-bypass-approvals-and-sandbox`), so riskgate's hook is the only gate: a command
that did not run was stopped by riskgate's answer, never by the agent's own rules.
"""

import json
import os
import re
import sys


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
    on_failure = {}
    # Arguments of `riskgate install AGENT` (the project's settings by default).
    install_args = []
    # The hook's time limit in seconds (the one `riskgate install` writes, else the agent's
    # default) when above 30: the slow scenario's hook sleeps 15 s past it.
    hook_limit = None
    # Why the approval scenario does not apply, when it does not.
    approve_na = "cannot ask"
    # Whether a refused call goes back to the model as a tool result (with riskgate's reason).
    reason_to_model = True

    def __init__(self, ctx):
        self.ctx = ctx

    def env(self):
        return {}

    def setup(self):
        """Write the agent's own configuration (after `riskgate install`)."""

    def argv(self, prompt, approve=False, resume=None):
        raise NotImplementedError

    def session_of(self, stdout):
        return None


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

    def env(self):
        return {
            "ANTHROPIC_BASE_URL": self.ctx.base_url,
            "ANTHROPIC_API_KEY": "sk-ant-e2e-dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
        }

    def setup(self):
        approver = os.path.join(self.ctx.tests, "approver_mcp.py")
        config = {"mcpServers": {"e2e": {
            "command": sys.executable,
            "args": [approver],
            "env": {"E2E_APPROVALS": self.ctx.approvals},
        }}}
        with open(self.ctx.path("mcp.json"), "w", encoding="utf-8") as f:
            json.dump(config, f)

    def argv(self, prompt, approve=False, resume=None):
        args = [self.ctx.agent_bin, "-p", prompt, "--output-format", "json", "--allowedTools", "Bash"]
        if approve:
            args += ["--mcp-config", self.ctx.path("mcp.json"),
                     "--permission-prompt-tool", "mcp__e2e__approve"]
        if resume:
            args += ["--resume", resume]
        return args

    def session_of(self, stdout):
        try:
            return json.loads(stdout).get("session_id")
        except (ValueError, AttributeError):
            return None


class Gemini(Driver):
    name = "gemini"
    title = "Gemini CLI"
    package = "@google/gemini-cli"
    version = "0.61.0"
    bin_name = "gemini"
    ask = "deny"
    reports_approvals = False
    on_failure = {"crash": "ran", "garbage": "ran", "slow": "ran"}

    def env(self):
        return {
            "GEMINI_API_KEY": "e2e-dummy",
            "GOOGLE_GEMINI_BASE_URL": self.ctx.base_url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }

    def setup(self):
        path = os.path.join(self.ctx.home, ".gemini", "settings.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {"disableAutoUpdate": True},
            "privacy": {"usageStatisticsEnabled": False},
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(settings, f, indent=2)

    def argv(self, prompt, approve=False, resume=None):
        return [self.ctx.agent_bin, "-p", prompt, "--output-format", "json", "--approval-mode", "yolo"]


class Codex(Driver):
    name = "codex"
    title = "Codex CLI"
    package = "@openai/codex"
    version = "0.169.0"
    bin_name = "codex"
    ask = "deny"
    reports_approvals = False
    on_failure = {"crash": "ran", "garbage": "ran", "slow": "ran"}

    def env(self):
        return {"E2E_MOCK_API_KEY": "e2e-dummy", "CODEX_HOME": os.path.join(self.ctx.home, ".codex")}

    def setup(self):
        path = os.path.join(self.ctx.home, ".codex", "config.toml")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = (
            'model = "mock-model"\n'
            'model_provider = "e2e"\n'
            "\n"
            "[model_providers.e2e]\n"
            'name = "e2e mock"\n'
            f'base_url = "{self.ctx.base_url}/v1"\n'
            'env_key = "E2E_MOCK_API_KEY"\n'
            'wire_api = "responses"\n'
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def argv(self, prompt, approve=False, resume=None):
        # --trust: the scratch project's .codex/ is read; --dangerously-bypass-hook-trust: the
        # hook riskgate just installed runs without the interactive /hooks review.
        return [self.ctx.agent_bin, "exec", "--trust", "--dangerously-bypass-hook-trust",
                "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", "--json", prompt]

    def session_of(self, stdout):
        m = re.search(r'"thread_id":"([^"]+)"', stdout or "")
        return m.group(1) if m else None


class Copilot(Driver):
    name = "copilot"
    title = "Copilot CLI"
    package = "@github/copilot"
    version = "1.0.102"
    bin_name = "copilot"
    ask = "prompt"
    reports_approvals = False
    on_failure = {"crash": "blocked", "garbage": "ran", "slow": "ran"}
    # 1.0.102 defers a repository's hooks (.github/hooks/*.json) until the folder is trusted in
    # an interactive session and never loads them in a `copilot -p` turn (its debug log shows
    # only the user's hooks); the user's ~/.copilot/hooks/ are loaded everywhere.
    install_args = ["--user"]
    approve_na = "no one to approve in `copilot -p`"

    def env(self):
        # BYOK: an OpenAI-compatible provider, no GitHub sign-in; offline mode keeps the CLI
        # from reaching GitHub's services.
        return {
            "COPILOT_PROVIDER_BASE_URL": f"{self.ctx.base_url}/v1",
            "COPILOT_PROVIDER_TYPE": "openai",
            "COPILOT_PROVIDER_API_KEY": "e2e-dummy",
            "COPILOT_MODEL": "gpt-4.1",
            "COPILOT_OFFLINE": "true",
            "COPILOT_AUTO_UPDATE": "false",
        }

    def argv(self, prompt, approve=False, resume=None):
        return [self.ctx.agent_bin, "-p", prompt, "--allow-all-tools", "--no-color"]


class Qwen(Driver):
    name = "qwen"
    title = "Qwen Code"
    package = "@qwen-code/qwen-code"
    version = "0.24.4"
    bin_name = "qwen"
    ask = "deny"
    reports_approvals = False
    on_failure = {"crash": "ran", "garbage": "ran", "slow": "ran"}

    def env(self):
        return {
            "OPENAI_BASE_URL": f"{self.ctx.base_url}/v1",
            "OPENAI_API_KEY": "e2e-dummy",
            "OPENAI_MODEL": "mock-model",
            "QWEN_CODE_TRUST_WORKSPACE": "true",
        }

    def setup(self):
        path = os.path.join(self.ctx.home, ".qwen", "settings.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        settings = {
            "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
            "general": {"disableAutoUpdate": True},
            "privacy": {"usageStatisticsEnabled": False},
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(settings, f, indent=2)

    def argv(self, prompt, approve=False, resume=None):
        return [self.ctx.agent_bin, "-p", prompt, "--output-format", "json", "--approval-mode", "yolo"]


class OpenCode(Driver):
    name = "opencode"
    title = "OpenCode"
    config_dir = "opencode"
    config_file = "opencode.json"
    package = "opencode-ai"
    version = "1.18.33"
    bin_name = "opencode"
    ask = "deny"
    reports_approvals = False
    on_failure = {"crash": "blocked", "garbage": "blocked", "slow": "blocked"}

    def env(self):
        return {
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_SHARE": "1",
            "XDG_CONFIG_HOME": os.path.join(self.ctx.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.ctx.home, ".local", "share"),
            "XDG_CACHE_HOME": os.path.join(self.ctx.home, ".cache"),
            "XDG_STATE_HOME": os.path.join(self.ctx.home, ".local", "state"),
        }

    def setup(self):
        path = os.path.join(self.ctx.home, ".config", self.config_dir, self.config_file)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        config = {
            "provider": {"e2e": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "e2e mock",
                "options": {"baseURL": f"{self.ctx.base_url}/v1", "apiKey": "e2e-dummy"},
                "models": {"mock-model": {"name": "mock model", "tool_call": True}},
            }},
            "model": "e2e/mock-model",
            "small_model": "e2e/mock-model",
            "autoupdate": False,
            "share": "disabled",
            "permission": {"bash": "allow", "edit": "allow"},
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(config, f, indent=2)

    def argv(self, prompt, approve=False, resume=None):
        return [self.ctx.agent_bin, "run", prompt]


class Kilo(OpenCode):
    # OpenCode's runtime under another name (docs/protocols.md). 7.7.7: the newest
    # @kilocode/cli whose platform package (@kilocode/cli-linux-x64) the registry has; 7.8.1's
    # install fails ("failed to install the right Kilo CLI package").
    name = "kilo"
    title = "Kilo Code CLI"
    package = "@kilocode/cli"
    version = "7.7.7"
    bin_name = "kilo"
    config_dir = "kilo"
    config_file = "kilo.json"


class Cline(Driver):
    name = "cline"
    title = "Cline CLI"
    package = "cline"
    version = "3.0.65"
    bin_name = "cline"
    ask = "deny"
    reports_approvals = False
    on_failure = {"crash": "ran", "garbage": "ran", "slow": "ran"}
    # riskgate's deny is Cline's `cancel`: the task ends, the model is not called again.
    reason_to_model = False

    def setup(self):
        # `cline auth` with an OpenAI-compatible provider at the mock (no Cline account)
        import subprocess

        subprocess.run(
            [self.ctx.agent_bin, "auth", "-p", "openai", "-k", "e2e-dummy", "-m", "mock-model",
             "-b", f"{self.ctx.base_url}/v1"],
            cwd=self.ctx.proj, env=self.ctx.env_fn(), stdin=subprocess.DEVNULL,
            capture_output=True, timeout=120, check=True,
        )

    def argv(self, prompt, approve=False, resume=None):
        return [self.ctx.agent_bin, "--json", "--auto-approve", "true", "-t", "150", prompt]


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
    ask = "deny"
    reports_approvals = False
    on_failure = {"crash": "ran", "garbage": "ran", "slow": "ran"}
    # `riskgate install droid` sets no `timeout`: Droid's default is 60 s.
    hook_limit = 60

    def env(self):
        # Airgap Mode: no Factory account, no Factory services; only BYOK custom models.
        return {"FACTORY_AIRGAP_ENABLED": "true", "FACTORY_DISABLE_KEYRING": "1",
                "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"}

    def setup(self):
        path = os.path.join(self.ctx.home, ".factory", "settings.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        settings = {"customModels": [{
            "model": "mock-model", "displayName": "mock", "provider": "anthropic",
            "baseUrl": self.ctx.base_url, "apiKey": "e2e-dummy", "maxOutputTokens": 4096,
        }]}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(settings, f, indent=2)

    def argv(self, prompt, approve=False, resume=None):
        return [self.ctx.agent_bin, "exec", "--skip-permissions-unsafe", "-m", "custom:mock-0",
                "-o", "json", prompt]


DRIVERS = {d.name: d for d in (Claude, Gemini, Codex, Copilot, Qwen, OpenCode, Kilo, Cline, Droid)}
