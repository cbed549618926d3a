//! PowerShell and cmd.exe commands nobody described, rated by what they do (issue 13 item 2,
//! round 5): a destructive approved verb on any noun that is not local state deletes a
//! resource of some service; purge parameters delete whatever the verb; Pester's test blocks
//! name commands without running them. Each test feeds variants that are in no corpus, and
//! near misses that must stay below HIGH. The texts are data; nothing is run.

mod windows_common;

use riskgate::Engine;
use windows_common::{below_high, high, ps};

#[test]
fn destructive_verbs_on_any_service_noun_are_high() {
    let e = Engine::builtin();
    for t in [
        "Remove-FabrikamGadget -Name billing-prod -Force",
        "Remove-PnPWeb -Identity finance -Force",
        "Clear-ContosoQueue -Name orders-prod -Confirm:$false",
        "Remove-ComputerRestorePoint -RestorePoint 12",
        "Remove-NetworkSwitchVlan -VlanIds 10",
        "Revoke-NorthwindLicense -Tenant acme -Confirm:$false",
        "Unregister-ContosoAgent -Name build-agent-01 -Force",
        "Get-WidgetFeed -All | Remove-WidgetFeed",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "Remove-Job -Name build",
        "Uninstall-Module Pester -Force",
        "Uninstall-Package -Name 7zip",
        "Clear-Host",
        "Clear-DnsClientCache",
        "Clear-AzContext -Force",
        "Remove-PSReadLineKeyHandler -Chord Ctrl+x",
        "Unregister-PSRepository -Name local",
        "Remove-SmbMapping -LocalPath Z: -Force",
        "Stop-Transcript",
        "Get-FabrikamGadget -Name billing-prod",
        "New-FabrikamGadget -Name billing-dev",
        "Set-FabrikamGadget -Name billing-dev -Color blue",
    ] {
        below_high(&ps(&e, t), t);
    }
}

#[test]
fn purge_parameters_delete_whatever_the_verb() {
    let e = Engine::builtin();
    for t in [
        "Invoke-ContosoRetention -Mailbox all -Purge -Confirm:$false",
        "Start-ArchiveCleanup -Scope Tenant -CleanupType HardDelete",
        "Submit-RecordsJob -Name old -Mode SoftDelete -Force",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "Get-ContosoRetention -Mailbox all",
        "Start-ArchiveCleanup -Scope Tenant -CleanupType Report",
    ] {
        below_high(&ps(&e, t), t);
    }
}

#[test]
fn pester_blocks_name_commands_without_running_them() {
    let e = Engine::builtin();
    for t in [
        "Describe 'Remove-Tenant' {\n  It 'deletes the tenant' {\n    Mock Remove-AzResourceGroup { }\n    Invoke-TenantCleanup -Name t1\n    Should -Invoke Remove-AzResourceGroup -Times 1\n  }\n}",
        "Mock Stop-Computer { } -ModuleName Ops",
        "Context 'Format-Volume wrapper' { It 'is mocked' { Assert-MockCalled Format-Volume -Times 0 } }",
    ] {
        below_high(&ps(&e, t), t);
    }
    // what a test block really runs is still read
    let t = "It 'cleans' { Remove-Item C:\\Users -Recurse -Force }";
    high(&ps(&e, t), t);
}
