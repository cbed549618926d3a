//! PowerShell and cmd.exe commands rated by what they do (issue 13 item 2): home trees, accounts
//! and identities, cloud cmdlets by their verb and noun, services, firewall, recovery and disk
//! encryption, registry top keys, `robocopy /MIR`. Each test feeds variants no rule names one
//! by one, and near misses that must stay below HIGH. The texts are data; nothing is run.

use riskgate::model::effect::{EffectKind, TargetClass};
use riskgate::{Assessment, Engine, RiskLevel, Shell};

fn ps(engine: &Engine, text: &str) -> Assessment {
    engine.assess_command_as(text, Some(Shell::PowerShell))
}

fn cmd(engine: &Engine, text: &str) -> Assessment {
    engine.assess_command_as(text, Some(Shell::Cmd))
}

fn high(a: &Assessment, text: &str) {
    assert!(
        a.level >= RiskLevel::High,
        "{text}: {:?} {:#?}",
        a.level,
        a.findings
    );
}

fn below_high(a: &Assessment, text: &str) {
    assert!(
        a.level < RiskLevel::High,
        "{text}: {:?} {:#?}",
        a.level,
        a.findings
    );
}

fn has_effect(a: &Assessment, kind: EffectKind, class: TargetClass) -> bool {
    a.effects
        .iter()
        .any(|e| e.kind == kind && e.target.class == class)
}

#[test]
fn a_tree_of_the_users_own_files_is_high_in_every_spelling() {
    let e = Engine::builtin();
    for t in [
        "Remove-Item -Recurse -Force $env:APPDATA",
        "ri ~\\Documents -r -fo",
        "Remove-Item -Recurse \"$HOME\\source\\repos\"",
        "Get-ChildItem $env:LOCALAPPDATA -Recurse | Remove-Item -Force",
        "Get-ChildItem -Path \"$env:USERPROFILE\\Music\" -File -Recurse | ForEach-Object { Remove-Item $_.FullName -Force }",
        "[IO.Directory]::Delete(\"$env:USERPROFILE\\Videos\", $true)",
        "gci D:\\Backups -r | ri -fo",
    ] {
        let a = ps(&e, t);
        high(&a, t);
    }
    for t in [
        "del /f /s /q %APPDATA%\\*",
        "rd /s /q \"%USERPROFILE%\\Favorites\"",
        "robocopy C:\\empty C:\\Users\\dev\\Music /MIR",
    ] {
        high(&cmd(&e, t), t);
    }
    let a = ps(&e, "Remove-Item -Recurse -Force $env:APPDATA\\Code");
    assert!(has_effect(&a, EffectKind::Delete, TargetClass::UserData));
    // caches, build output and temp under the home stay below HIGH, and so does one file
    for t in [
        "Remove-Item -Recurse -Force $env:LOCALAPPDATA\\npm-cache",
        "Remove-Item -Recurse -Force C:\\Users\\me\\project\\node_modules",
        "Remove-Item -Recurse -Force $env:TEMP\\build",
        "Remove-Item $HOME\\notes.txt",
        "Get-ChildItem $env:TEMP -Recurse | Remove-Item -Force",
        "robocopy src C:\\Users\\me\\project\\dist /MIR",
    ] {
        below_high(&ps(&e, t), t);
    }
}

#[test]
fn accounts_and_identities_are_credentials() {
    let e = Engine::builtin();
    for t in [
        "Remove-ADUser -Identity jsmith -Confirm:$false",
        "Remove-ADGroup -Identity Finance",
        "Get-ADUser -Filter * -SearchBase 'OU=Sales,DC=corp,DC=local' | Disable-ADAccount",
        "Set-ADAccountPassword -Identity svc_web -Reset -NewPassword $p",
        "Add-ADGroupMember -Identity 'Enterprise Admins' -Members temp01",
        "Remove-MgUser -UserId a1b2",
        "Remove-Mailbox -Identity cfo@corp.example -Confirm:$false",
        "Remove-LocalUser -Name backup_admin",
        "Add-LocalGroupMember -Group Administrators -Member helpdesk",
        "Remove-IAMRole -RoleName deploy -Force",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "net user olduser /delete",
        "net user guest /active:yes",
        "net user svc_sql N3wPass!",
        "net localgroup \"Remote Desktop Users\" intern /add",
        "net group \"Domain Admins\" temp01 /add /domain",
    ] {
        let a = cmd(&e, t);
        high(&a, t);
        assert!(
            a.effects
                .iter()
                .any(|x| x.target.class == TargetClass::Credentials),
            "{t}"
        );
    }
    // reading accounts, adding to an ordinary group, listing: below HIGH
    for t in [
        "Get-ADUser -Filter * | Select-Object Name",
        "Add-ADGroupMember -Identity Developers -Members jdoe",
        "Get-LocalGroupMember -Group Administrators",
        "New-ADUser -Name jdoe -Enabled $true",
    ] {
        below_high(&ps(&e, t), t);
    }
    for t in [
        "net user",
        "net user jdoe",
        "net localgroup users jdoe /add",
    ] {
        below_high(&cmd(&e, t), t);
    }
}

#[test]
fn cloud_cmdlets_are_read_from_their_verb_and_noun_and_session_nouns_are_not() {
    let e = Engine::builtin();
    for t in [
        "Remove-EC2Instance -InstanceId i-0abc -Force",
        "Remove-S3Bucket -BucketName prod-assets -DeleteBucketContent -Force",
        "Remove-RDSDBCluster -DBClusterIdentifier prod-aurora -SkipFinalSnapshot $true -Force",
        "Remove-AzSqlDatabase -ResourceGroupName prod -ServerName sql1 -DatabaseName orders",
        "Get-AzVM -ResourceGroupName prod-rg | Remove-AzVM -Force",
    ] {
        let a = ps(&e, t);
        high(&a, t);
        assert!(
            has_effect(&a, EffectKind::Delete, TargetClass::CloudResource),
            "{t}"
        );
    }
    for t in [
        "Stop-Job -Id 3; Remove-Job -Id 3",
        "Remove-Variable -Name tmp",
        "Remove-PSDrive -Name X",
        "Remove-Module PSReadLine",
        "Get-EC2Instance -InstanceId i-0abc",
    ] {
        let a = ps(&e, t);
        below_high(&a, t);
        assert!(
            !a.effects
                .iter()
                .any(|x| x.target.class == TargetClass::CloudResource),
            "{t}"
        );
    }
}

#[test]
fn services_firewall_recovery_and_encryption() {
    let e = Engine::builtin();
    for t in [
        "sc.exe delete Spooler",
        "net stop MSSQL$PROD /y",
        "net stop \"Windows Defender Firewall\"",
        "reagentc /disable",
        "manage-bde -off D:",
        "\"%ProgramFiles%\\Windows Defender\\MpCmdRun.exe\" -RemoveDefinitions -All",
        "netsh advfirewall firewall add rule name=x dir=in action=allow protocol=TCP localport=5985",
        "vssadmin resize shadowstorage /for=D: /on=D: /maxsize=320MB",
        "reg delete HKLM\\SOFTWARE /f",
    ] {
        high(&cmd(&e, t), t);
    }
    for t in [
        "Disable-BitLocker -MountPoint D:",
        "Remove-NetFirewallRule",
        "New-NetFirewallRule -DisplayName ssh -Direction Inbound -Action Allow -Protocol TCP -LocalPort 22",
        "Stop-Service -Name postgresql-x64-16 -Force",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "net stop wuauclt-helper-dev",
        "netsh advfirewall firewall add rule name=web dir=in action=allow protocol=TCP localport=8080 remoteip=localsubnet",
        "vssadmin resize shadowstorage /for=C: /on=C: /maxsize=20GB",
        "reg delete HKCU\\Software\\Acme\\Cache /f",
        "manage-bde -status",
    ] {
        below_high(&cmd(&e, t), t);
    }
    for t in [
        "Remove-NetFirewallRule -DisplayName 'dev server 8080'",
        "New-NetFirewallRule -DisplayName web -Direction Inbound -Action Allow -Protocol TCP -LocalPort 8080",
        "Get-BitLockerVolume",
    ] {
        below_high(&ps(&e, t), t);
    }
}
