//! Cloud contexts a script selects: `az account set --subscription acme-dev`, `gcloud config
//! set project acme-dev-sandbox` choose where the commands after them act, as `export
//! AWS_PROFILE=sandbox` does. The choice is kept
//! as a context variable ([`crate::model::ENV_CONTEXT_VARS`]), which the commands after it
//! carry and the environment scoping reads.

use crate::SimpleCommand;
use crate::ctx::Norm;

/// The context variable a command sets and its value, if it selects a context.
fn selected(cmd: &SimpleCommand) -> Option<(&'static str, String)> {
    let pos: Vec<&crate::Word> = cmd.positionals().collect();
    let text = |i: usize| pos.get(i).map(|w| w.text.as_str());
    let value = |flags: &[&str]| {
        cmd.args.iter().enumerate().find_map(|(k, a)| {
            let t = a.text.as_str();
            if let Some((f, v)) = t.split_once('=')
                && flags.contains(&f)
            {
                return Some(v.to_string());
            }
            flags
                .contains(&t)
                .then(|| cmd.args.get(k + 1).map(|w| w.text.clone()))
                .flatten()
        })
    };
    match (cmd.program.as_str(), text(0), text(1)) {
        ("az", Some("account"), Some("set")) => {
            value(&["--subscription", "-s", "--name", "-n"]).map(|v| ("AZURE_SUBSCRIPTION", v))
        }
        ("gcloud", Some("config"), Some("set")) if text(2) == Some("project") => {
            text(3).map(|v| ("CLOUDSDK_CORE_PROJECT", v.to_string()))
        }
        _ => None,
    }
}

impl Norm<'_> {
    /// Remember the context `cmd` selects, if any (see the module doc); a value only known at
    /// run time forgets the earlier one.
    pub(crate) fn follow_cli_context(&mut self, cmd: &SimpleCommand) {
        if let Some((name, value)) = selected(cmd) {
            let known = !value.is_empty() && !value.contains(['$', '`']);
            self.set_var(name, known.then_some(value));
        }
    }
}
