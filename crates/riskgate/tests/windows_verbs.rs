//! PowerShell and cmd.exe commands nobody described, rated by what they do (issue 13 item 2,
//! round 5): a destructive approved verb on any noun that is not local state deletes a
//! resource of some service; purge parameters delete whatever the verb; Pester's test blocks
//! name commands without running them. Each test feeds variants that are in no corpus, and
//! near misses that must stay below HIGH. The texts are data; nothing is run.

mod windows_common;

use riskgate::Engine;
use windows_common::{below_high, cmd, high, ps};

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
fn protections_by_noun_machines_stopped_and_acls_granted() {
    let e = Engine::builtin();
    for t in [
        "Disable-ComputerRestore -Drive C:\\",
        "Suspend-ContosoEndpointProtection -Confirm:$false",
        "Stop-FabrikamAuditing -Server dc01",
        "Get-VM | Stop-VM -TurnOff -Force",
        "Stop-VM -Name sql01 -TurnOff",
        "$acl = Get-Acl C:\\Windows\\System32\n$r = New-Object System.Security.AccessControl.FileSystemAccessRule('Everyone','FullControl','Allow')\n$acl.SetAccessRule($r)\nSet-Acl C:\\Windows\\System32 $acl",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "Enable-ComputerRestore -Drive C:\\",
        "Get-ComputerRestorePoint",
        "Stop-VM -Name dev01",
        "$acl = Get-Acl .\\build\n$r = New-Object System.Security.AccessControl.FileSystemAccessRule('jdoe','Read','Allow')\n$acl.SetAccessRule($r)\nSet-Acl .\\build $acl",
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
fn splatted_tables_and_arrays_are_the_commands_arguments() {
    let e = Engine::builtin();
    for t in [
        "$opts = @{ LiteralPath = 'C:\\Users'; Recurse = $true; Force = $true }\nRemove-Item @opts",
        "$svc = @{\n  Name = 'WinDefend'\n  Force = $true\n}\nStop-Service @svc",
        "$q = @{ DriveLetter = 'D'; FileSystem = 'NTFS'; Confirm = $false }; Format-Volume @q",
        "$tool = 'vssadmin'; $rest = 'delete','shadows','/all','/quiet'; & $tool @rest",
        "$exe = 'bcdedit'; $parts = @('/set', '{default}', 'recoveryenabled', 'No'); & $exe @parts",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "$p = @{ Path = '.\\build'; Recurse = $true; Force = $true }; Remove-Item @p",
        "$p = @{ Path = 'C:\\Users'; Recurse = $true }; Get-ChildItem @p",
        "$a = 'status','--short'; & git @a",
        "$p = @{ Name = 'WinDefend' }; Get-Service @p",
    ] {
        below_high(&ps(&e, t), t);
    }
}

#[test]
fn loops_and_pipelines_over_listings_act_on_what_is_listed() {
    let e = Engine::builtin();
    for t in [
        "foreach ($proc in Get-Process) { Stop-Process -Id $proc.Id -Force }",
        "foreach ($x in (Get-Process)) {\n  try { $x.Kill() } catch {}\n}",
        "$list = Get-ChildItem 'D:\\Backups\\*.bak' | Sort-Object Name\n$list | Select-Object -First 100 | Remove-Item -Force",
        "$old = Get-ChildItem \"$env:USERPROFILE\\Documents\" -Recurse | Where-Object { $_.Length -gt 0 }\n$old | Remove-Item -Force",
        "Get-ScheduledTask | ForEach-Object { Unregister-ScheduledTask -TaskName $_.TaskName -Confirm:$false }",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "for /d %%d in (D:\\Shares\\*) do (\r\n  echo removing %%d\r\n  rd /s /q \"%%d\"\r\n)",
        "for %%f in (C:\\Windows\\System32\\drivers\\*.sys) do (\n del /f /q \"%%f\"\n)",
    ] {
        high(&cmd(&e, t), t);
    }
    for t in [
        "foreach ($proc in Get-Process -Name notepad) { Stop-Process -Id $proc.Id }",
        "$list = Get-ChildItem .\\logs\\*.log | Sort-Object LastWriteTime\n$list | Select-Object -Skip 10 | Remove-Item",
        "foreach ($p in Get-Process) { Write-Host $p.Name $p.Id }",
    ] {
        below_high(&ps(&e, t), t);
    }
    let t = "for /d %%d in (build\\*) do (\n  echo cleaning %%d\n  rd /s /q \"%%d\"\n)";
    below_high(&cmd(&e, t), t);
}

#[test]
fn strings_only_written_or_shown_are_data() {
    let e = Engine::builtin();
    for t in [
        "@('Remove-Item C:\\ -Recurse -Force', 'vssadmin delete shadows /all') | ForEach-Object { Write-Host \"sample: $_\" }",
        "$samples = 'format c:', 'wevtutil cl Security'\n$samples | ForEach-Object { Write-Output $_ }",
        "'vssadmin delete shadows /all /quiet' | Set-Content .\\fixtures\\ransom.txt",
        "@'\nStop-Service WinDefend -Force\nwevtutil cl System\n'@ | Out-File .\\tests\\data\\bad-lines.txt",
    ] {
        below_high(&ps(&e, t), t);
    }
    for t in ["shutdown /a", "shutdown -a"] {
        below_high(&cmd(&e, t), t);
    }
    for t in [
        "@('vssadmin delete shadows /all /quiet') | ForEach-Object { Invoke-Expression $_ }",
        "$s = 'wevtutil cl Security'\n$s | Out-File x.txt\ncmd /c $s",
        "'vssadmin delete shadows /all /quiet' | Set-Content .\\run.bat; .\\run.bat",
    ] {
        high(&ps(&e, t), t);
    }
    let t = "shutdown /r /t 0";
    high(&cmd(&e, t), t);
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
