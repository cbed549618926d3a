//! What the file cmdlets described in `data/effects.yaml` do besides their described
//! effect: a copy to another host's share is a send to that host (`Copy-Item X
//! \\HOST\share\`), and `Set-Acl` with access rules built before it for everyone or all
//! users loosens access.

use riskgate_model::effect::{Effect, EffectKind, Target, TargetClass};

use super::infer::{Found, found};
use crate::matcher::CommandView;

fn target(class: TargetClass, text: &str) -> Target {
    Target {
        class,
        text: text.to_string(),
        environment: None,
    }
}

/// `Copy-Item X \\HOST\share\…` (and `Move-Item`, cmd's `copy`/`move`): the files are sent to
/// that host, rated like any upload to it (an address, a public or a private host).
pub(crate) fn share_copy(v: &CommandView<'_>, out: &mut Vec<Found>) {
    if !matches!(v.cmd.program.as_str(), "Copy-Item" | "Move-Item") {
        return;
    }
    let dest = v
        .cmd
        .flag_value("-Destination")
        .or_else(|| v.positionals.last().map(|p| p.text.as_ref()));
    let Some(dest) =
        dest.filter(|_| v.positionals.len() >= 2 || v.cmd.flag_value("-Destination").is_some())
    else {
        return;
    };
    let Some(host) = crate::flow::unc_host(dest) else {
        return;
    };
    let class = riskgate_model::effect::classify_host(host);
    if class == TargetClass::Loopback {
        return;
    }
    out.push(found(Effect::new(0, EffectKind::Send, target(class, dest))));
}

/// `Set-Acl P $acl` whose access rules (recorded as `-Grant=PRINCIPAL:RIGHTS` by the shell)
/// give everyone, all users or all authenticated users full control, modify or write: its
/// permission change loosens access, as `icacls P /grant Everyone:F` does.
pub(crate) fn acl_grants(v: &CommandView<'_>, out: &mut [Found]) {
    if v.cmd.program != "Set-Acl" {
        return;
    }
    let loosens = v.cmd.args.iter().any(|a| {
        let Some((who, rights)) = a
            .text
            .strip_prefix("-Grant=")
            .and_then(|g| g.split_once(':'))
        else {
            return false;
        };
        let who = who.trim_matches(['"', '\'']).to_ascii_lowercase();
        let rights = rights.trim_matches(['"', '\'']).to_ascii_lowercase();
        let broad = matches!(
            who.rsplit('\\').next().unwrap_or(""),
            "everyone" | "users" | "authenticated users" | "domain users" | "s-1-1-0" | "*s-1-1-0"
        );
        broad
            && [
                "fullcontrol",
                "modify",
                "write",
                "changepermissions",
                "takeownership",
            ]
            .iter()
            .any(|r| rights.contains(r))
    });
    if loosens {
        for f in out
            .iter_mut()
            .filter(|f| f.effect.kind == EffectKind::Permissions)
        {
            f.weight = f.weight.max(super::score::LOOSENS);
        }
    }
}
