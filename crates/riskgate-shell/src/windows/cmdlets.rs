//! Data: PowerShell's built-in aliases and the parameters of the cmdlets riskgate reads. A
//! cmdlet entry names its parameters, the canonical spelling first, then aliases, and a kind:
//! `s` a switch, `v` a value, `p` a path value (written in canonical Windows form, see
//! [`super::winpath`]); a digit after the kind is the parameter's position (`Path,PSPath:p0`:
//! the first positional argument binds `-Path`). Positional parameters come out of
//! canonicalization as positionals in position order; named values as `-Name=value`; switches
//! as `-Name`. Cmdlets not listed keep their parameters as written.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// `(cmdlet, parameters)`.
pub(crate) type Spec = (&'static str, &'static [&'static str]);

/// Parameters every cmdlet takes.
pub(crate) const COMMON: &[&str] = &[
    "Verbose,vb:s",
    "Debug,db:s",
    "ErrorAction,ea:v",
    "WarningAction,wa:v",
    "InformationAction,infa:v",
    "ProgressAction,proga:v",
    "ErrorVariable,ev:v",
    "WarningVariable,wv:v",
    "InformationVariable,iv:v",
    "OutVariable,ov:v",
    "OutBuffer,ob:v",
    "PipelineVariable,pv:v",
    "WhatIf,wi:s",
    "Confirm,cf:s",
    "UseTransaction,usetx:s",
];

const FILTERS: [&str; 3] = ["Filter:v", "Include:v", "Exclude:v"];

macro_rules! with_filters {
    ($($e:expr),* $(,)?) => { &[$($e,)* FILTERS[0], FILTERS[1], FILTERS[2]] };
}

#[rustfmt::skip]
pub(crate) static CMDLETS: &[Spec] = &[
    // ---- files and items
    ("Remove-Item", with_filters!["Path,PSPath:p0", "LiteralPath,LP:p", "Recurse:s", "Force:s", "Credential:v", "Stream:v"]),
    ("Get-ChildItem", &["Path:p0", "Filter:v1", "LiteralPath,LP,PSPath:p", "Include:v", "Exclude:v", "Recurse,s:s", "Depth:v", "Force:s", "Name:s", "Directory,ad,d:s", "File,af:s", "Hidden,ah,h:s", "ReadOnly,ar:s", "System,as:s", "Attributes:v", "FollowSymlink:s"]),
    ("Get-Item", with_filters!["Path:p0", "LiteralPath,LP,PSPath:p", "Force:s", "Stream:v"]),
    ("Copy-Item", with_filters!["Path:p0", "Destination:p1", "LiteralPath,LP,PSPath:p", "Recurse:s", "Force:s", "Container:s", "PassThru:s", "ToSession:v", "FromSession:v", "Credential:v"]),
    ("Move-Item", with_filters!["Path:p0", "Destination:p1", "LiteralPath,LP,PSPath:p", "Force:s", "PassThru:s", "Credential:v"]),
    ("Rename-Item", &["Path:p0", "NewName:v1", "LiteralPath,LP,PSPath:p", "Force:s", "PassThru:s"]),
    ("New-Item", &["Path:p0", "ItemType,Type:v", "Value,Target:v", "Name:v", "Force:s", "Credential:v"]),
    ("Set-Content", with_filters!["Path:p0", "Value:v1", "LiteralPath,LP,PSPath:p", "Force:s", "Encoding:v", "NoNewline:s", "PassThru:s", "Stream:v", "AsByteStream:s"]),
    ("Add-Content", with_filters!["Path:p0", "Value:v1", "LiteralPath,LP,PSPath:p", "Force:s", "Encoding:v", "NoNewline:s", "PassThru:s", "Stream:v"]),
    ("Clear-Content", with_filters!["Path:p0", "LiteralPath,LP,PSPath:p", "Force:s", "Stream:v"]),
    ("Out-File", &["FilePath,Path:p0", "Encoding:v1", "LiteralPath,LP,PSPath:p", "Append:s", "Force:s", "NoClobber,NoOverwrite:s", "InputObject:v", "Width:v", "NoNewline:s"]),
    ("Tee-Object", &["FilePath,Path:p0", "LiteralPath:p", "Append:s", "Variable:v", "InputObject:v"]),
    ("Get-Content", with_filters!["Path:p0", "LiteralPath,LP,PSPath:p", "TotalCount,Head,First:v", "Tail,Last:v", "Raw:s", "Encoding:v", "Wait:s", "ReadCount:v", "Stream:v", "Delimiter:v", "AsByteStream:s"]),
    ("Set-Location", &["Path:p0", "LiteralPath,LP,PSPath:p", "PassThru:s", "StackName:v"]),
    ("Push-Location", &["Path:p0", "LiteralPath,LP,PSPath:p", "PassThru:s", "StackName:v"]),
    ("Clear-Item", with_filters!["Path:p0", "LiteralPath:p", "Force:s"]),
    ("Set-Item", with_filters!["Path:p0", "Value:v1", "LiteralPath:p", "Force:s", "PassThru:s"]),
    ("Get-ItemProperty", with_filters!["Path:p0", "Name:v1", "LiteralPath:p"]),
    ("Set-ItemProperty", with_filters!["Path:p0", "Name:v1", "Value:v2", "LiteralPath:p", "Type,PropertyType:v", "Force:s", "PassThru:s", "InputObject:v"]),
    ("New-ItemProperty", with_filters!["Path:p0", "Name:v1", "Value:v2", "LiteralPath:p", "PropertyType,Type:v", "Force:s"]),
    ("Remove-ItemProperty", with_filters!["Path:p0", "Name:v1", "LiteralPath:p", "Force:s"]),
    ("Clear-ItemProperty", with_filters!["Path:p0", "Name:v1", "LiteralPath:p", "Force:s"]),
    ("Test-Path", with_filters!["Path:p0", "LiteralPath:p", "PathType,Type:v", "IsValid:s"]),
    ("Resolve-Path", &["Path:p0", "LiteralPath:p", "Relative:s"]),
    ("Join-Path", &["Path:v0", "ChildPath:v1", "AdditionalChildPath:v", "Resolve:s"]),
    ("Expand-Archive", &["Path:p0", "DestinationPath:p1", "LiteralPath:p", "Force:s", "PassThru:s"]),
    ("Compress-Archive", &["Path:p0", "DestinationPath:p1", "LiteralPath:p", "Force:s", "Update:s", "CompressionLevel:v"]),
    ("Set-Acl", with_filters!["Path:p0", "AclObject:v1", "LiteralPath:p", "Passthru:s"]),
    ("Get-Acl", with_filters!["Path:p0", "LiteralPath:p", "Audit:s"]),
    ("Invoke-Item", with_filters!["Path:p0", "LiteralPath:p"]),
    ("Unblock-File", &["Path:p0", "LiteralPath:p"]),
    ("Export-Csv", &["Path:p0", "LiteralPath:p", "Append:s", "Force:s", "NoTypeInformation:s", "InputObject:v"]),
    ("Get-FileHash", &["Path:p0", "LiteralPath:p", "Algorithm:v"]),
    // ---- processes, services, the machine
    ("Stop-Process", &["Id:v0", "Name,ProcessName:v", "InputObject:v", "Force:s", "PassThru:s"]),
    ("Get-Process", &["Name,ProcessName:v0", "Id:v", "IncludeUserName:s", "Module:s", "FileVersionInfo:s"]),
    ("Start-Process", &["FilePath,PSPath,Path:v0", "ArgumentList,Args:v1", "Verb:v", "WorkingDirectory:v", "Credential:v", "Wait:s", "NoNewWindow,nnw:s", "WindowStyle:v", "PassThru:s", "LoadUserProfile,Lup:s", "UseNewEnvironment:s", "RedirectStandardOutput,RSO:v", "RedirectStandardError,RSE:v", "RedirectStandardInput,RSI:v"]),
    ("Stop-Service", &["Name,ServiceName:v0", "DisplayName:v", "InputObject:v", "Force:s", "NoWait:s", "PassThru:s", "Include:v", "Exclude:v"]),
    ("Start-Service", &["Name,ServiceName:v0", "DisplayName:v", "InputObject:v", "PassThru:s"]),
    ("Restart-Service", &["Name,ServiceName:v0", "DisplayName:v", "InputObject:v", "Force:s", "PassThru:s"]),
    ("Suspend-Service", &["Name,ServiceName:v0", "DisplayName:v", "InputObject:v", "PassThru:s"]),
    ("Set-Service", &["Name,ServiceName,SN:v0", "DisplayName:v", "StartupType,StartMode,ST:v", "Status:v", "Description:v", "BinaryPathName:v", "SecurityDescriptorSddl,sd:v", "Credential:v", "Force:s", "PassThru:s", "InputObject:v"]),
    ("New-Service", &["Name,ServiceName:v0", "BinaryPathName,Path:v1", "DisplayName:v", "StartupType:v", "Description:v", "Credential:v", "DependsOn:v"]),
    ("Remove-Service", &["Name,ServiceName:v0", "InputObject:v"]),
    ("Get-Service", &["Name,ServiceName:v0", "DisplayName:v", "DependentServices:s", "RequiredServices:s"]),
    ("Stop-Computer", &["ComputerName,CN,__SERVER,Server,IPAddress:v0", "Force:s", "Credential:v", "AsJob:s", "WsmanAuthentication:v"]),
    ("Restart-Computer", &["ComputerName,CN,__SERVER,Server,IPAddress:v0", "Force:s", "Credential:v", "Wait:s", "For:v", "Timeout:v", "Delay:v", "AsJob:s"]),
    ("Set-ExecutionPolicy", &["ExecutionPolicy:v0", "Scope:v1", "Force:s"]),
    ("Format-Volume", &["DriveLetter:v0", "FileSystem:v", "NewFileSystemLabel:v", "Force:s", "Full:s", "Path:v", "ObjectId,Id:v", "Partition:v", "InputObject:v", "FileSystemLabel:v", "AllocationUnitSize:v"]),
    ("Clear-Disk", &["Number,DiskNumber,DeviceId:v0", "FriendlyName:v", "UniqueId,Id:v", "Path:v", "RemoveData:s", "RemoveOEM:s", "InputObject:v", "PassThru:s"]),
    ("Initialize-Disk", &["Number,DiskNumber,DeviceId:v0", "PartitionStyle:v", "FriendlyName:v", "UniqueId,Id:v", "Path:v", "InputObject:v", "PassThru:s"]),
    ("Remove-Partition", &["DiskNumber:v0", "PartitionNumber:v1", "DriveLetter:v", "DiskId:v", "Offset:v", "InputObject:v", "PassThru:s"]),
    ("Set-Disk", &["Number:v0", "IsOffline:v", "IsReadOnly:v", "UniqueId:v", "InputObject:v", "PartitionStyle:v"]),
    ("Get-Disk", &["Number:v0", "FriendlyName:v", "UniqueId:v", "Path:v", "SerialNumber:v"]),
    ("Get-Volume", &["DriveLetter:v0", "FileSystemLabel:v", "Path:v", "ObjectId:v"]),
    ("Get-Partition", &["DiskNumber:v0", "PartitionNumber:v1", "DriveLetter:v"]),
    ("Clear-RecycleBin", &["DriveLetter:v0", "Force:s"]),
    ("Disable-ComputerRestore", &["Drive:v0"]),
    ("Clear-EventLog", &["LogName:v0", "ComputerName,CN:v"]),
    ("Remove-EventLog", &["LogName:v0", "Source:v", "ComputerName,CN:v"]),
    ("Limit-EventLog", &["LogName:v0", "MaximumSize:v", "OverflowAction:v", "RetentionDays:v"]),
    ("Clear-History", &["Id:v0", "CommandLine:v", "Count:v", "Newest:s"]),
    // ---- security controls
    ("Set-MpPreference", &["DisableRealtimeMonitoring,drtm:v", "DisableBehaviorMonitoring,dbm:v", "DisableIOAVProtection,dioavp:v", "DisableScriptScanning,dscrptsc:v", "DisableArchiveScanning,darchsc:v", "DisableIntrusionPreventionSystem,dips:v", "DisableBlockAtFirstSeen,dbaf:v", "DisablePrivacyMode,dpm:v", "DisableEmailScanning,demsc:v", "DisableRemovableDriveScanning,drdsc:v", "DisableScanningNetworkFiles,dsnf:v", "DisableScanningMappedNetworkDrivesForFullScan,dsmndf:v", "DisableCatchupFullScan:v", "DisableCatchupQuickScan:v", "DisableCpuThrottleOnIdleScans:v", "DisableTamperProtection:v", "MAPSReporting:v", "SubmitSamplesConsent:v", "PUAProtection:v", "EnableNetworkProtection:v", "EnableControlledFolderAccess:v", "ExclusionPath:v", "ExclusionExtension:v", "ExclusionProcess:v", "ExclusionIpAddress:v", "SignatureUpdateInterval:v", "HighThreatDefaultAction:v", "SevereThreatDefaultAction:v", "ModerateThreatDefaultAction:v", "LowThreatDefaultAction:v", "UnknownThreatDefaultAction:v", "ScanScheduleDay:v", "ScanAvgCPULoadFactor:v", "CloudBlockLevel:v", "AttackSurfaceReductionRules_Ids:v", "AttackSurfaceReductionRules_Actions:v", "Force:s"]),
    ("Add-MpPreference", &["ExclusionPath:v", "ExclusionExtension:v", "ExclusionProcess:v", "ExclusionIpAddress:v", "AttackSurfaceReductionOnlyExclusions:v", "ControlledFolderAccessAllowedApplications:v", "ThreatIDDefaultAction_Ids:v", "ThreatIDDefaultAction_Actions:v", "Force:s"]),
    ("Remove-MpPreference", &["ExclusionPath:v", "ExclusionExtension:v", "ExclusionProcess:v", "ExclusionIpAddress:v", "Force:s"]),
    ("Set-NetFirewallProfile", &["Profile,Name:v0", "Enabled:v", "DefaultInboundAction:v", "DefaultOutboundAction:v", "All:s", "NotifyOnListen:v", "LogBlocked:v", "LogAllowed:v", "AllowInboundRules:v", "PolicyStore:v"]),
    ("New-NetFirewallRule", &["DisplayName:v", "Name,ID:v", "Direction:v", "Action:v", "Protocol:v", "LocalPort:v", "RemotePort:v", "RemoteAddress:v", "LocalAddress:v", "Program:v", "Enabled:v", "Profile:v", "Group:v", "Description:v"]),
    ("Set-NetFirewallRule", &["Name,ID:v0", "DisplayName:v", "Enabled:v", "Action:v", "Direction:v", "RemoteAddress:v", "LocalPort:v", "Profile:v", "Group:v", "DisplayGroup:v", "All:s"]),
    ("Remove-NetFirewallRule", &["Name,ID:v0", "DisplayName:v", "Group:v", "DisplayGroup:v", "All:s", "Direction:v", "Action:v"]),
    ("Disable-NetFirewallRule", &["Name,ID:v0", "DisplayName:v", "Group:v", "DisplayGroup:v", "All:s", "Direction:v"]),
    ("Enable-PSRemoting", &["Force:s", "SkipNetworkProfileCheck:s"]),
    ("Set-SmbServerConfiguration", &["EnableSMB1Protocol:v", "EnableSMB2Protocol:v", "RequireSecuritySignature:v", "EncryptData:v", "RejectUnencryptedAccess:v", "Force:s"]),
    // ---- scheduled tasks, users, features, modules
    ("Register-ScheduledTask", &["TaskName:v0", "TaskPath:v1", "Action:v", "Trigger:v", "Principal:v", "Settings:v", "User:v", "Password:v", "RunLevel:v", "Xml:v", "Description:v", "InputObject:v", "Force:s"]),
    ("Unregister-ScheduledTask", &["TaskName:v0", "TaskPath:v", "InputObject:v"]),
    ("New-ScheduledTaskAction", &["Execute:v0", "Argument:v1", "WorkingDirectory:v", "Id:v"]),
    ("New-ScheduledTaskTrigger", &["AtLogOn:s", "AtStartup:s", "Once:s", "Daily:s", "Weekly:s", "At:v", "User:v", "RepetitionInterval:v", "RepetitionDuration:v", "DaysInterval:v", "DaysOfWeek:v", "RandomDelay:v"]),
    ("Register-ScheduledJob", &["Name:v0", "ScriptBlock:v1", "FilePath:p", "Trigger:v", "ArgumentList:v", "Credential:v", "RunNow:s"]),
    ("New-LocalUser", &["Name:v0", "Password:v", "NoPassword:s", "Description:v", "FullName:v", "AccountNeverExpires:s", "PasswordNeverExpires:s", "UserMayNotChangePassword:s", "Disabled:s"]),
    ("Remove-LocalUser", &["Name:v0", "SID:v", "InputObject:v"]),
    ("Set-LocalUser", &["Name:v0", "Password:v", "SID:v", "InputObject:v", "Description:v", "PasswordNeverExpires:v", "AccountNeverExpires:s"]),
    ("Add-LocalGroupMember", &["Group,Name:v0", "Member:v1", "SID:v"]),
    ("Remove-LocalGroupMember", &["Group,Name:v0", "Member:v1", "SID:v"]),
    ("Disable-WindowsOptionalFeature", &["FeatureName:v", "Online:s", "Remove:s", "NoRestart:s"]),
    ("Uninstall-WindowsFeature", &["Name:v0", "Remove:s", "Restart:s", "IncludeManagementTools:s"]),
    ("Install-Module", &["Name:v0", "Repository:v", "Scope:v", "RequiredVersion:v", "Force:s", "AllowClobber:s", "SkipPublisherCheck:s", "AcceptLicense:s", "AllowPrerelease:s"]),
    ("Set-PSRepository", &["Name:v0", "SourceLocation:v", "InstallationPolicy:v", "PublishLocation:v"]),
    ("Register-PSRepository", &["Name:v0", "SourceLocation:v1", "InstallationPolicy:v", "Default:s"]),
    ("Remove-AppxPackage", &["Package:v0", "AllUsers:s", "PreserveApplicationData:s"]),
    // ---- code, remote execution, downloads
    ("Invoke-Expression", &["Command:v0"]),
    // a documentation lookup: its words are names, not commands
    ("Get-Help", &["Name:v0", "Path:v", "Category:v", "Component:v", "Functionality:v", "Role:v", "Full:s", "Detailed:s", "Examples:s", "Online:s", "Parameter:v", "ShowWindow:s"]),
    ("Invoke-Command", &["ScriptBlock,Command:v0", "ComputerName,Cn:v", "ArgumentList,Args:v", "FilePath,PSPath:p", "Credential:v", "Session:v", "AsJob:s", "HideComputerName,HCN:s", "InDisconnectedSession,Disconnected:s", "NoNewScope:s", "Authentication:v", "UseSSL:s", "VMName:v", "ContainerId:v", "InputObject:v", "JobName:v", "ThrottleLimit:v"]),
    ("Start-Job", &["ScriptBlock,Command:v0", "FilePath:p", "ArgumentList,Args:v", "Name:v", "Credential:v", "InitializationScript:v", "RunAs32:s", "InputObject:v"]),
    ("ForEach-Object", &["Process:v0", "Begin:v", "End:v", "MemberName:v", "ArgumentList,Args:v", "Parallel:v", "ThrottleLimit:v", "InputObject:v", "RemainingScripts:v", "AsJob:s"]),
    ("Where-Object", &["FilterScript:v0", "Property:v", "Value:v", "InputObject:v"]),
    ("Invoke-WebRequest", &["Uri,Url:v0", "OutFile:p", "Method:v", "Body:v", "Headers:v", "UseBasicParsing:s", "Credential:v", "ContentType:v", "InFile:p", "UserAgent:v", "Proxy:v", "SessionVariable,SV:v", "WebSession:v", "TimeoutSec:v", "SkipCertificateCheck:s", "Form:v", "PassThru:s", "UseDefaultCredentials:s", "MaximumRedirection:v", "Resume:s"]),
    ("Invoke-RestMethod", &["Uri,Url:v0", "OutFile:p", "Method:v", "Body:v", "Headers:v", "UseBasicParsing:s", "Credential:v", "ContentType:v", "InFile:p", "UserAgent:v", "Proxy:v", "SessionVariable,SV:v", "WebSession:v", "TimeoutSec:v", "SkipCertificateCheck:s", "Form:v", "PassThru:s", "UseDefaultCredentials:s", "Authentication:v", "Token:v", "MaximumRedirection:v"]),
    ("Start-BitsTransfer", &["Source:p0", "Destination:p1", "Asynchronous:s", "DisplayName:v", "Priority:v", "TransferType:v", "Credential:v"]),
    ("Set-Alias", &["Name:v0", "Value:v1", "Option:v", "Scope:v", "Description:v", "Force:s", "PassThru:s"]),
    ("New-Alias", &["Name:v0", "Value:v1", "Option:v", "Scope:v", "Description:v", "Force:s", "PassThru:s"]),
    ("Set-Variable", &["Name:v0", "Value:v1", "Scope:v", "Option:v", "Visibility:v", "Description:v", "Force:s", "PassThru:s"]),
    ("New-Variable", &["Name:v0", "Value:v1", "Scope:v", "Option:v", "Visibility:v", "Description:v", "Force:s", "PassThru:s"]),
    ("Add-Type", &["TypeDefinition:v0", "Language:v", "Path:p", "LiteralPath:p", "AssemblyName,AN:v", "MemberDefinition:v", "Name:v", "Namespace,NS:v", "UsingNamespace,Using:v", "ReferencedAssemblies:v", "OutputAssembly,OA:v", "OutputType,OT:v", "PassThru:s", "IgnoreWarnings:s", "CompilerOptions:v"]),
    ("New-Object", &["TypeName:v0", "ArgumentList,Args:v1", "ComObject:v", "Property:v", "Strict:s"]),
    ("Import-Module", &["Name:v0", "Force:s", "Global:s", "Prefix:v", "Function:v", "Cmdlet:v", "Variable:v", "Alias:v", "PassThru:s", "AsCustomObject:s", "MinimumVersion,Version:v", "RequiredVersion:v", "Scope:v", "DisableNameChecking:s", "SkipEditionCheck:s"]),
    ("Invoke-WmiMethod", &["Class:v0", "Name:v1", "ArgumentList:v", "Path:v", "ComputerName,Cn:v", "InputObject:v", "Namespace,NS:v", "Credential:v", "AsJob:s"]),
    ("Invoke-CimMethod", &["ClassName,Class:v0", "MethodName,Name:v1", "Arguments:v", "InputObject:v", "Query:v", "Namespace:v", "ComputerName,Cn:v", "CimSession:v"]),
    ("Get-WmiObject", &["Class:v0", "Property:v1", "Filter:v", "Namespace,NS:v", "ComputerName,Cn:v", "Query:v", "Credential:v", "List:s", "Recurse:s"]),
    ("Get-CimInstance", &["ClassName,Class:v0", "Filter:v", "Namespace:v", "ComputerName,Cn:v", "Query:v", "Property:v", "CimSession:v"]),
    ("Remove-WmiObject", &["Class:v0", "Path:v", "InputObject:v", "Namespace:v", "ComputerName:v"]),
    ("Remove-CimInstance", &["InputObject:v0", "Query:v", "Namespace:v", "ComputerName:v", "CimSession:v"]),
    ("Invoke-Sqlcmd", &["Query:v", "ServerInstance,S:v", "Database:v", "InputFile:p", "Username:v", "Password:v", "Credential:v", "ConnectionString:v", "QueryTimeout:v", "TrustServerCertificate:s", "Encrypt:v", "OutputAs:v"]),
    ("Write-Output", &["InputObject:v0", "NoEnumerate:s"]),
    ("Write-Host", &["Object,Msg,Message:v0", "NoNewline:s", "Separator:v", "ForegroundColor:v", "BackgroundColor:v"]),
    ("Select-String", &["Pattern:v0", "Path:p1", "LiteralPath:p", "SimpleMatch:s", "CaseSensitive:s", "Quiet:s", "List:s", "NotMatch:s", "AllMatches:s", "Context:v", "Encoding:v", "Include:v", "Exclude:v", "InputObject:v", "Raw:s"]),
];

/// PowerShell's built-in aliases (lower case) and the cmdlet each stands for.
#[rustfmt::skip]
pub(crate) static ALIASES: &[(&str, &str)] = &[
    ("%", "ForEach-Object"), ("?", "Where-Object"), ("ac", "Add-Content"),
    ("cat", "Get-Content"), ("cd", "Set-Location"), ("chdir", "Set-Location"),
    ("clc", "Clear-Content"), ("clhy", "Clear-History"), ("cli", "Clear-Item"),
    ("clp", "Clear-ItemProperty"), ("cls", "Clear-Host"), ("clear", "Clear-Host"),
    ("clv", "Clear-Variable"), ("compare", "Compare-Object"), ("copy", "Copy-Item"),
    ("cp", "Copy-Item"), ("cpi", "Copy-Item"), ("cpp", "Copy-ItemProperty"),
    ("curl", "Invoke-WebRequest"), ("cvpa", "Convert-Path"), ("del", "Remove-Item"),
    ("diff", "Compare-Object"), ("dir", "Get-ChildItem"), ("echo", "Write-Output"),
    ("epal", "Export-Alias"), ("epcsv", "Export-Csv"), ("erase", "Remove-Item"),
    ("etsn", "Enter-PSSession"), ("exsn", "Exit-PSSession"), ("fc", "Format-Custom"),
    ("fhx", "Format-Hex"), ("fl", "Format-List"), ("foreach", "ForEach-Object"),
    ("ft", "Format-Table"), ("fw", "Format-Wide"), ("gal", "Get-Alias"),
    ("gbp", "Get-PSBreakpoint"), ("gc", "Get-Content"), ("gcb", "Get-Clipboard"),
    ("gci", "Get-ChildItem"), ("gcm", "Get-Command"), ("gcs", "Get-PSCallStack"),
    ("gdr", "Get-PSDrive"), ("ghy", "Get-History"), ("gi", "Get-Item"),
    ("gin", "Get-ComputerInfo"), ("gjb", "Get-Job"), ("gl", "Get-Location"),
    ("gm", "Get-Member"), ("gmo", "Get-Module"), ("gp", "Get-ItemProperty"),
    ("gps", "Get-Process"), ("gpv", "Get-ItemPropertyValue"), ("group", "Group-Object"),
    ("gsn", "Get-PSSession"), ("gsv", "Get-Service"), ("gtz", "Get-TimeZone"),
    ("gu", "Get-Unique"), ("gv", "Get-Variable"), ("gwmi", "Get-WmiObject"),
    ("h", "Get-History"), ("help", "Get-Help"), ("history", "Get-History"), ("icm", "Invoke-Command"),
    ("iex", "Invoke-Expression"), ("ihy", "Invoke-History"), ("ii", "Invoke-Item"),
    ("ipal", "Import-Alias"), ("ipcsv", "Import-Csv"), ("ipmo", "Import-Module"),
    ("irm", "Invoke-RestMethod"), ("iwmi", "Invoke-WmiMethod"), ("iwr", "Invoke-WebRequest"),
    ("kill", "Stop-Process"), ("ls", "Get-ChildItem"), ("measure", "Measure-Object"),
    ("mi", "Move-Item"), ("mount", "New-PSDrive"), ("move", "Move-Item"),
    ("mp", "Move-ItemProperty"), ("mv", "Move-Item"), ("nal", "New-Alias"),
    ("ndr", "New-PSDrive"), ("ni", "New-Item"), ("nmo", "New-Module"),
    ("nsn", "New-PSSession"), ("nv", "New-Variable"), ("ogv", "Out-GridView"),
    ("oh", "Out-Host"), ("popd", "Pop-Location"), ("ps", "Get-Process"),
    ("pushd", "Push-Location"), ("pwd", "Get-Location"), ("r", "Invoke-History"),
    ("rbp", "Remove-PSBreakpoint"), ("rcjb", "Receive-Job"), ("rcsn", "Receive-PSSession"),
    ("rd", "Remove-Item"), ("rdr", "Remove-PSDrive"), ("ren", "Rename-Item"),
    ("ri", "Remove-Item"), ("rjb", "Remove-Job"), ("rm", "Remove-Item"),
    ("rmdir", "Remove-Item"), ("rmo", "Remove-Module"), ("rni", "Rename-Item"),
    ("rnp", "Rename-ItemProperty"), ("rp", "Remove-ItemProperty"), ("rsn", "Remove-PSSession"),
    ("rv", "Remove-Variable"), ("rvpa", "Resolve-Path"), ("rwmi", "Remove-WmiObject"),
    ("sajb", "Start-Job"), ("sal", "Set-Alias"), ("saps", "Start-Process"),
    ("sasv", "Start-Service"), ("sbp", "Set-PSBreakpoint"), ("sc", "Set-Content"),
    ("scb", "Set-Clipboard"), ("select", "Select-Object"), ("set", "Set-Variable"),
    ("shcm", "Show-Command"), ("si", "Set-Item"), ("sl", "Set-Location"),
    ("sleep", "Start-Sleep"), ("sls", "Select-String"), ("sort", "Sort-Object"),
    ("sp", "Set-ItemProperty"), ("spjb", "Stop-Job"), ("spps", "Stop-Process"),
    ("spsv", "Stop-Service"), ("start", "Start-Process"), ("stz", "Set-TimeZone"),
    ("sv", "Set-Variable"), ("swmi", "Set-WmiInstance"), ("tee", "Tee-Object"),
    ("trcm", "Trace-Command"), ("type", "Get-Content"), ("wget", "Invoke-WebRequest"),
    ("where", "Where-Object"), ("wjb", "Wait-Job"), ("write", "Write-Output"),
];

/// Aliases that are also programs on Unix hosts (where PowerShell 7 runs the program): read
/// as the program when their words are not the cmdlet's parameters (`rm -rf /`).
pub(crate) const UNIX_NAMES: &[&str] = &[
    "rm", "cp", "mv", "ls", "cat", "ps", "kill", "curl", "wget", "sort", "diff", "tee", "sleep",
    "mount", "echo", "pwd", "cd", "rmdir", "type",
];

/// cmd.exe builtins that are also PowerShell aliases: with `/x` switches they are read as
/// cmd.exe would read them (`rd /s /q C:\x`).
pub(crate) const CMD_NAMES: &[&str] = &[
    "rd", "rmdir", "del", "erase", "copy", "move", "dir", "type", "ren", "md", "mkdir", "cd",
    "chdir",
];

/// One parameter of a cmdlet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Param {
    /// The canonical name (`Recurse`).
    pub name: &'static str,
    /// Every spelling (canonical name and aliases), as written in the table.
    pub names: &'static [&'static str],
    /// `s` switch, `v` value, `p` path value.
    pub kind: u8,
    /// The position, if it binds positional arguments.
    pub position: Option<u8>,
}

/// A cmdlet's parameters, parsed from its table entry.
#[derive(Debug)]
pub(crate) struct Cmdlet {
    pub name: &'static str,
    pub params: Vec<Param>,
}

fn parse_param(e: &'static str) -> Option<Param> {
    let (names, kind) = e.rsplit_once(':')?;
    let names: Vec<&'static str> = names.split(',').collect();
    let names: &'static [&'static str] = Box::leak(names.into_boxed_slice());
    let kb = kind.as_bytes();
    let position = kb.get(1).filter(|d| d.is_ascii_digit()).map(|d| d - b'0');
    Some(Param {
        name: names.first()?,
        names,
        kind: *kb.first()?,
        position,
    })
}

/// Every cmdlet of the table, by lower-case name; built on first use.
static TABLE: LazyLock<HashMap<String, Cmdlet>> = LazyLock::new(|| {
    let common: Vec<Param> = COMMON.iter().filter_map(|e| parse_param(e)).collect();
    let mut m = HashMap::new();
    for (name, params) in CMDLETS {
        let mut ps: Vec<Param> = params.iter().filter_map(|e| parse_param(e)).collect();
        ps.extend(common.iter().copied());
        m.insert(name.to_ascii_lowercase(), Cmdlet { name, params: ps });
    }
    m
});

/// The lower-case names of [`TABLE`] alone: asking whether a word of bash text is a cmdlet
/// name (see [`super::looks_like_powershell`]) does not build every cmdlet's parameters.
static NAMES: LazyLock<HashSet<String>> = LazyLock::new(|| {
    CMDLETS
        .iter()
        .map(|(n, _)| n.to_ascii_lowercase())
        .collect()
});

/// The cmdlet named `name` (any case), if the table describes it.
pub(crate) fn cmdlet(name: &str) -> Option<&'static Cmdlet> {
    TABLE.get(&name.to_ascii_lowercase())
}

/// The cmdlet a built-in alias stands for (`ri` → `Remove-Item`).
pub(crate) fn alias(name: &str) -> Option<&'static str> {
    let l = name.to_ascii_lowercase();
    ALIASES.iter().find(|(a, _)| *a == l).map(|(_, c)| *c)
}

/// PowerShell's approved verbs: a `Verb-Noun` word with one of them is a cmdlet name.
const VERBS: &[&str] = &[
    "add",
    "approve",
    "assert",
    "backup",
    "block",
    "build",
    "checkpoint",
    "clear",
    "close",
    "compare",
    "complete",
    "compress",
    "confirm",
    "connect",
    "convert",
    "convertfrom",
    "convertto",
    "copy",
    "debug",
    "deny",
    "deploy",
    "disable",
    "disconnect",
    "dismount",
    "edit",
    "enable",
    "enter",
    "exit",
    "expand",
    "export",
    "find",
    "format",
    "get",
    "grant",
    "group",
    "hide",
    "import",
    "initialize",
    "install",
    "invoke",
    "join",
    "limit",
    "lock",
    "measure",
    "merge",
    "mount",
    "move",
    "new",
    "open",
    "optimize",
    "out",
    "ping",
    "pop",
    "protect",
    "publish",
    "push",
    "read",
    "receive",
    "redo",
    "register",
    "remove",
    "rename",
    "repair",
    "request",
    "reset",
    "resize",
    "resolve",
    "restart",
    "restore",
    "resume",
    "revoke",
    "save",
    "search",
    "select",
    "send",
    "set",
    "show",
    "skip",
    "split",
    "start",
    "step",
    "stop",
    "submit",
    "suspend",
    "switch",
    "sync",
    "test",
    "trace",
    "unblock",
    "undo",
    "uninstall",
    "unlock",
    "unprotect",
    "unpublish",
    "unregister",
    "update",
    "use",
    "wait",
    "watch",
    "write",
];

/// Whether `word` is a cmdlet name: in the table, or `Verb-Noun` with an approved verb and a
/// noun of letters and digits (`Get-MpComputerStatus`, `Remove-AzResourceGroup`).
pub(crate) fn is_cmdlet_name(word: &str) -> bool {
    if NAMES.contains(word.to_ascii_lowercase().as_str()) {
        return true;
    }
    let Some((verb, noun)) = word.split_once('-') else {
        return false;
    };
    let v = verb.to_ascii_lowercase();
    VERBS.contains(&v.as_str())
        && noun.len() >= 2
        && noun.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && noun.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The canonical spelling of a cmdlet name: the table's, else the verb and noun with an upper
/// case first letter (`remove-azresourcegroup` → `Remove-Azresourcegroup` keeps the rest as
/// written).
pub(crate) fn canonical_name(word: &str) -> String {
    if let Some(c) = cmdlet(word) {
        return c.name.to_string();
    }
    let mut out = String::with_capacity(word.len());
    let mut up = true;
    for c in word.chars() {
        if up {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c);
        }
        up = c == '-';
    }
    out
}

/// Whether `name` (lower case) matches a PowerShell wildcard pattern (lower case, `*` and `?`).
fn wildcard(pattern: &[u8], name: &[u8]) -> bool {
    // iterative glob with one backtrack point: linear in practice, bounded by the lengths
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(c) if *c == b'?' || *c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|c| *c == b'*')
}

/// The command `Get-Command PATTERN` (`gcm PATTERN`) finds, when the text is that lookup and
/// the pattern names one known cmdlet (`gcm *ke-Exp*` is `Invoke-Expression`, `Get-Command
/// Stop-Com*` is `Stop-Computer`); `& (gcm …)` and `.(gcm …)` run it.
pub(crate) fn looked_up_command(text: &str) -> Option<String> {
    let mut words = text.split_whitespace().take(16);
    let first = words.next()?.to_ascii_lowercase();
    if first != "gcm" && first != "get-command" {
        return None;
    }
    let mut pattern = None;
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
            continue;
        }
        let wl = w.to_ascii_lowercase();
        if wl == "-name" {
            continue;
        }
        if wl.starts_with('-') {
            // `-CommandType Cmdlet`, `-Module X`
            skip = !wl.contains(':');
            continue;
        }
        pattern = Some(w.trim_matches(['\'', '"']).to_string());
        break;
    }
    let pattern = pattern?;
    if pattern.len() > 128 {
        return None;
    }
    if !pattern.contains(['*', '?']) {
        return Some(alias(&pattern).map_or_else(|| canonical_name(&pattern), str::to_string));
    }
    let pattern = pattern.to_ascii_lowercase();
    let pb = pattern.as_bytes();
    let mut hits: Vec<&'static str> = Vec::new();
    for (name, _) in CMDLETS {
        if wildcard(pb, name.to_ascii_lowercase().as_bytes()) && !hits.contains(name) {
            hits.push(name);
        }
    }
    for (a, c) in ALIASES {
        if wildcard(pb, a.as_bytes()) && !hits.contains(c) {
            hits.push(c);
        }
    }
    // Several cmdlets match (`*ove-It*m` is Move-Item and Remove-Item): the one whose verb
    // does the most harm is assumed, as a gate must not allow what it could not tell apart.
    if hits.len() > 16 {
        return None;
    }
    hits.iter()
        .enumerate()
        .max_by_key(|(k, name)| (verb_harm(name), std::cmp::Reverse(*k)))
        .map(|(_, name)| (*name).to_string())
}

/// How much harm a cmdlet's verb can do, for choosing among the cmdlets a pattern matches.
fn verb_harm(cmdlet: &str) -> u8 {
    let verb = cmdlet.split('-').next().unwrap_or("").to_ascii_lowercase();
    match verb.as_str() {
        "remove" | "clear" | "format" | "stop" | "disable" | "uninstall" | "invoke" | "restart"
        | "unregister" | "dismount" | "reset" => 3,
        "set" | "new" | "move" | "rename" | "copy" | "add" | "start" | "install" | "enable"
        | "register" | "import" | "export" | "send" | "write" | "out" => 2,
        _ => 1,
    }
}

impl Cmdlet {
    /// The parameter `written` (without its dash) names: an exact name or alias, else the one
    /// parameter whose name it begins (PowerShell accepts unambiguous prefixes). `None` when
    /// unknown or ambiguous.
    pub(crate) fn param(&self, written: &str) -> Option<&Param> {
        let w = written.to_ascii_lowercase();
        if let Some(p) = self
            .params
            .iter()
            .find(|p| p.names.iter().any(|n| n.eq_ignore_ascii_case(&w)))
        {
            return Some(p);
        }
        let mut found: Option<&Param> = None;
        for p in &self.params {
            if p.name.to_ascii_lowercase().starts_with(&w) {
                if found.is_some_and(|f| f.name != p.name) {
                    return None;
                }
                found = Some(p);
            }
        }
        found
    }

    /// The parameter at `position`.
    pub(crate) fn at(&self, position: u8) -> Option<&Param> {
        self.params.iter().find(|p| p.position == Some(position))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_aliases_and_prefixes() {
        assert_eq!(alias("RI"), Some("Remove-Item"));
        assert_eq!(alias("iex"), Some("Invoke-Expression"));
        let ri = cmdlet("remove-item").map(|c| c.name);
        assert_eq!(ri, Some("Remove-Item"));
        let c = cmdlet("Remove-Item").unwrap_or_else(|| unreachable!());
        assert_eq!(c.param("Rec").map(|p| p.name), Some("Recurse"));
        assert_eq!(c.param("fo").map(|p| p.name), Some("Force"));
        assert_eq!(c.param("lp").map(|p| p.name), Some("LiteralPath"));
        assert_eq!(c.param("cf").map(|p| p.name), Some("Confirm"));
        // `-F` begins Filter and Force: ambiguous
        assert_eq!(c.param("f"), None);
        assert_eq!(c.at(0).map(|p| p.name), Some("Path"));
        assert!(is_cmdlet_name("Get-MpComputerStatus"));
        assert!(is_cmdlet_name("remove-item"));
        assert!(!is_cmdlet_name("git-lfs"));
        assert!(!is_cmdlet_name("pre-commit"));
        assert_eq!(canonical_name("REMOVE-ITEM"), "Remove-Item");
        let found = |t: &str| looked_up_command(t);
        assert_eq!(found("gcm *ke-Exp*").as_deref(), Some("Invoke-Expression"));
        assert_eq!(
            found("Get-Command Stop-Com*").as_deref(),
            Some("Stop-Computer")
        );
        assert_eq!(
            found("gcm -Name 'i?x'").as_deref(),
            Some("Invoke-Expression")
        );
        assert_eq!(
            found("Get-Command Remove-Item").as_deref(),
            Some("Remove-Item")
        );
        // several commands match: not one known command
        assert_eq!(found("gcm *-Item"), Some("Remove-Item".to_string()));
        assert_eq!(found("gcm *ove-It*m").as_deref(), Some("Remove-Item"));
        assert_eq!(found("gcm *"), None);
        assert_eq!(found("Get-ChildItem *"), None);
        assert_eq!(canonical_name("remove-azthing"), "Remove-Azthing");
    }
}
