; Loyalty Kiosk installer (Inno Setup 6). Compile on Windows after the bundle:
;     python build\build_bundle.py
;     iscc installer.iss            -> build\out\loyalty-kiosk-setup-<version>.exe
; (.github/workflows/windows.yml does, and tries the setup). On Linux, build/iscc.sh
; compiles it under Wine against a stand-in of the bundle, and build/installer_check.sh
; (in .ci/run) installs, upgrades and uninstalls that setup in a Wine prefix.
;
; Unattended (see docs\deploy.md for every parameter):
;     loyalty-kiosk-setup-0.1.0.exe /VERYSILENT /SUPPRESSMSGBOXES /NORESTART /ENV=production
;         /BASEURL=https://api.example.com /BRANCH=12 /KIOSKMODE=1 /AUTOSTART=1 /LANG=es
;
; Parameters are written into the machine-wide settings file the app reads
; ({commonappdata}\LoyaltyKiosk\kiosk.ini, docs\settings.md); a parameter not given
; leaves its key as it is, so an upgrade without parameters keeps the settings. Every
; install writes the file (a header alone when nothing is set yet), then gives its
; folder the ACL of docs\deploy.md: Administrators and SYSTEM full control, Users read.
; The installer never handles the API key: "loyalty-kiosk-cli provision" stores it in
; the keyring of the account the kiosk runs under.
; tests\deploy\test_installer_script.py and test_installer_spec.py check this script
; against the tree, docs\deploy.md and build\kiosk.spec.

; The version and the bundle's folder: build\out\version.iss (written by the build
; script from kiosk.__version__) and build\out\loyalty-kiosk, unless given on ISCC's
; command line (/DAppVersion=... /DAppFileVersion=... /DBundle=..., as build/iscc.sh does).
#ifndef AppVersion
#include "build\out\version.iss"
#endif
#ifndef AppVersion
  #error build\out\version.iss defines no AppVersion: run build\build_bundle.py first
#endif
#ifndef AppFileVersion
  #error no AppFileVersion (the four numbers of AppVersion): run build\build_bundle.py
#endif
#ifndef Bundle
#define Bundle "build\out\loyalty-kiosk"
#endif

#define AppName "Loyalty Kiosk"
; The Start-menu names of each language ([CustomMessages], [InstallDelete]).
#define TrainingIconEn "Loyalty Kiosk (training)"
#define TrainingIconEs "Loyalty Kiosk (entrenamiento)"
; The self-test's shortcut of earlier versions (a command prompt for every user, as the
; kiosk's account on a counter): removed by every install ([InstallDelete]), never made.
#define SelfTestIconEn "Loyalty Kiosk self-test"
#define SelfTestIconEs "Loyalty Kiosk autodiagnóstico"
#define GuiExe "loyalty-kiosk.exe"
#define CliExe "loyalty-kiosk-cli.exe"
#define DataFolder "LoyaltyKiosk"
#define RunningMutex "LoyaltyKioskRunning"

[Setup]
; Fixed forever: upgrades and the uninstaller find the installation by it.
AppId={{0FBE9679-584F-4818-866A-A1E42C2AE20A}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
VersionInfoVersion={#AppFileVersion}
VersionInfoProductVersion={#AppFileVersion}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
UsePreviousAppDir=yes
UsePreviousTasks=yes
PrivilegesRequired=admin
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=build\out
OutputBaseFilename=loyalty-kiosk-setup-{#AppVersion}
#if FileExists(SourcePath + "build\work\loyalty-kiosk.ico")
SetupIconFile=build\work\loyalty-kiosk.ico
#endif
UninstallDisplayIcon={app}\{#GuiExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; Code signing of the setup and the uninstaller (.github/workflows/windows.yml with its
; signing secrets): ISCC "/Ssigntool=signtool.exe sign ... $f" /DSignTool=signtool
#ifdef SignTool
SignTool={#SignTool}
#endif
; One Setup at a time. The running kiosk is closed by [Code] (PrepareToInstall) with
; "loyalty-kiosk-cli --shutdown", not by the Restart Manager (which would ask) nor by
; AppMutex (which, silent, would cancel the upgrade instead of closing the kiosk).
SetupMutex=LoyaltyKioskSetup,Global\LoyaltyKioskSetup
CloseApplications=no
RestartApplications=no

[Languages]
; Named like the kiosk's own "language" setting: /LANG=es picks the installer's
; language and the kiosk's (an unknown name such as "auto" leaves Setup's choice).
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "es"; MessagesFile: "compiler:Languages\Spanish.isl"

[CustomMessages]
en.AutostartTask=Start the kiosk when a user logs on (kiosk tablets)
es.AutostartTask=Iniciar el kiosco al iniciar sesión (tabletas de mostrador)
en.TrainingIcon={#TrainingIconEn}
es.TrainingIcon={#TrainingIconEs}
en.PurgeQuestion=Also delete the kiosk's data on this computer (credits not yet sent, today's journal, logs and settings)?%n%nChoose No to keep them for a reinstall.
es.PurgeQuestion=¿Borrar también los datos del kiosco en esta computadora (créditos sin enviar, diario, registros y configuración)?%n%nElija No para conservarlos para una reinstalación.
en.StillRunning=Loyalty Kiosk is still running and could not be closed. Close it (or restart the computer) and run Setup again.
es.StillRunning=Loyalty Kiosk sigue abierto y no se pudo cerrar. Ciérrelo (o reinicie la computadora) y vuelva a ejecutar la instalación.

[Tasks]
Name: "autostart"; Description: "{cm:AutostartTask}"; Flags: unchecked

[Dirs]
; The machine-wide settings folder: kept on uninstall (it is IT's configuration).
; Permissions: only adds entries to what the folder inherits from ProgramData, where
; Users may create files and then own them: [Code] (LockDataFolder) replaces the whole
; ACL with these three entries, inheritance from ProgramData cut, after every install.
Name: "{commonappdata}\{#DataFolder}"; Permissions: admins-full system-full users-readexec; Flags: uninsneveruninstall

[InstallDelete]
; An upgrade leaves no module of the previous version behind.
Type: filesandordirs; Name: "{app}\_internal"
; One language's Start-menu names: an upgrade in the other language removes the first's.
Type: files; Name: "{autoprograms}\{#TrainingIconEs}.lnk"; Languages: en
Type: files; Name: "{autoprograms}\{#TrainingIconEn}.lnk"; Languages: es
; The self-test shortcut of earlier versions ran "cmd /k" for every user: gone in both
; languages. IT runs the self-test from its own console (docs\deploy.md).
Type: files; Name: "{autoprograms}\{#SelfTestIconEn}.lnk"
Type: files; Name: "{autoprograms}\{#SelfTestIconEs}.lnk"

[Files]
Source: "{#Bundle}\{#GuiExe}"; DestDir: "{app}"; Flags: ignoreversion
Source: "{#Bundle}\{#CliExe}"; DestDir: "{app}"; Flags: ignoreversion
Source: "{#Bundle}\_internal\*"; DestDir: "{app}\_internal"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "docs\deploy.md"; DestDir: "{app}\docs"; Flags: ignoreversion
Source: "docs\settings.md"; DestDir: "{app}\docs"; Flags: ignoreversion
Source: "docs\troubleshooting.md"; DestDir: "{app}\docs"; Flags: ignoreversion
; Group Policy / Intune templates (build\policy_templates.py): IT copies them into
; PolicyDefinitions or imports them in Intune (docs\deploy.md, "Policies").
Source: "resources\policy\LoyaltyKiosk.admx"; DestDir: "{app}\policy"; Flags: ignoreversion
Source: "resources\policy\en-US\LoyaltyKiosk.adml"; DestDir: "{app}\policy\en-US"; Flags: ignoreversion
Source: "resources\policy\es-ES\LoyaltyKiosk.adml"; DestDir: "{app}\policy\es-ES"; Flags: ignoreversion

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#GuiExe}"
Name: "{autoprograms}\{cm:TrainingIcon}"; Filename: "{app}\{#GuiExe}"; Parameters: "--demo"
Name: "{commonstartup}\{#AppName}"; Filename: "{app}\{#GuiExe}"; Check: WantAutostart

[Registry]
; The Event Log source of the kiosk's events (Application log; docs\troubleshooting.md,
; "Events for IT's monitoring"): Windows' generic message file shows each event's
; text as the kiosk wrote it (ids 1-1000). Removed on uninstall.
Root: HKLM; Subkey: "SYSTEM\CurrentControlSet\Services\EventLog\Application\LoyaltyKiosk"; ValueType: expandsz; ValueName: "EventMessageFile"; ValueData: "%SystemRoot%\System32\EventCreate.exe"; Flags: uninsdeletekey
Root: HKLM; Subkey: "SYSTEM\CurrentControlSet\Services\EventLog\Application\LoyaltyKiosk"; ValueType: dword; ValueName: "TypesSupported"; ValueData: "7"

[Run]
Filename: "{app}\{#GuiExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent runasoriginaluser

[Code]
const
  EnvValues = '|production|qa|training|';
  LangValues = '|auto|en|es|';
  ShutdownClosed = 0;
  ShutdownFailed = 1;
  ShutdownNotRunning = 3;
  ShutdownArgs = '--shutdown --all-users --wait 30';
  MutexWaitSeconds = 30;
  { The data folder's ACL, by well-known SID (the group names change with Windows'
    language): Administrators and SYSTEM full control, Users read and execute, for the
    folder and all it holds. }
  SidAdmins = '*S-1-5-32-544';
  DataFolderAcl = '*S-1-5-32-544:(OI)(CI)F *S-1-5-18:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX';
  IniHeader = '; Loyalty Kiosk: the machine-wide settings (docs\settings.md in the install folder).'
    + #13#10 + '; Written by Setup and IT; users can read it, only administrators change it.'
    + #13#10;
  { Where the API key goes and the manager PIN are IT's alone (the kiosk ignores them in a
    user's settings.json anyway); the locks say so in the file too, written when the file
    has none. }
  DefaultLocks = 'environment, production_url, qa_url, manager_pin_hash';
  { A kiosk.ini found before the first install (any user could create one in
    ProgramData and own it) is set aside under this name, never read, and a fresh one
    written. }
  SetAsideIni = 'kiosk.ini.before-install';
  { An uninstall that keeps the data says so here (HKLM: no user can write it), so the
    next install takes the kept kiosk.ini as IT's, not as one planted before it. }
  KeptDataKey = 'Software\LoyaltyKiosk';
  KeptDataValue = 'DataKeptByUninstall';
  UninstallKey = 'Software\Microsoft\Windows\CurrentVersion\Uninstall\{0FBE9679-584F-4818-866A-A1E42C2AE20A}_is1';
  { An upgrade run as SYSTEM (Intune, SCCM, winget) starts the kiosk it closed again
    through this on-demand task: no trigger, the INTERACTIVE group as principal (it
    runs in each signed-in user's session, as that user, never elevated), no time limit
    (the default 72 h would end the counter). Created or replaced by each such upgrade,
    deleted by the uninstaller. }
  RestartTaskName = 'Loyalty Kiosk restart after upgrade';
  InteractiveSid = 'S-1-5-4';

var
  KioskWasRunning: Boolean;
  RestartNeeded: Boolean;
  PurgeData: Boolean;
  AutostartShown: Boolean;
  InstalledBefore: Boolean;
  DataKept: Boolean;

function IniPath(): String;
begin
  Result := ExpandConstant('{commonappdata}\{#DataFolder}\kiosk.ini');
end;

{ /NAME=value from Setup's (or the uninstaller's) command line; False when absent. }
function ParamValue(const Name: String; var Value: String): Boolean;
var
  I: Integer;
  Prefix, Arg: String;
begin
  Result := False;
  Prefix := '/' + Uppercase(Name) + '=';
  for I := 1 to ParamCount do
  begin
    Arg := ParamStr(I);
    if Pos(Prefix, Uppercase(Arg)) = 1 then
    begin
      Value := Trim(Copy(Arg, Length(Prefix) + 1, MaxInt));
      Result := True;
    end;
  end;
end;

function BoolValue(const Raw: String; var Value: String): Boolean;
var
  L: String;
begin
  L := Lowercase(Trim(Raw));
  Result := True;
  if (L = '1') or (L = 'true') or (L = 'yes') or (L = 'on') then
    Value := 'true'
  else if (L = '0') or (L = 'false') or (L = 'no') or (L = 'off') then
    Value := 'false'
  else
    Result := False;
end;

function InList(const Value, List: String): Boolean;
begin
  Result := (Value <> '') and (Pos('|' + Lowercase(Value) + '|', List) > 0);
end;

function IsApiUrl(const Url: String): Boolean;
var
  L: String;
begin
  L := Lowercase(Url);
  Result := (Pos('https://', L) = 1) or (Pos('http://localhost', L) = 1)
    or (Pos('http://127.0.0.1', L) = 1);
end;

{ Refuse a bad parameter before anything is installed (silent: exit code 1, see Setup's log). }
function CheckParameters(var Problem: String): Boolean;
var
  V, B, Env: String;
begin
  Problem := '';
  Env := '';
  if ParamValue('ENV', V) then
  begin
    Env := Lowercase(V);
    if not InList(V, EnvValues) then
      Problem := '/ENV= must be production, qa or training';
  end;
  if ParamValue('BASEURL', V) and (V <> '') and not IsApiUrl(V) then
    Problem := '/BASEURL= must be an https:// address';
  if ParamValue('QAURL', V) and (V <> '') and not IsApiUrl(V) then
    Problem := '/QAURL= must be an https:// address';
  if ParamValue('BRANCH', V) and (V <> '') and (StrToIntDef(V, 0) <= 0) then
    Problem := '/BRANCH= must be a branch id (a whole number)';
  if ParamValue('KIOSKMODE', V) and not BoolValue(V, B) then
    Problem := '/KIOSKMODE= must be 1 or 0';
  if ParamValue('AUTOSTART', V) and not BoolValue(V, B) then
    Problem := '/AUTOSTART= must be 1 or 0';
  if ParamValue('LANG', V) and not InList(V, LangValues) then
    Problem := '/LANG= must be auto, en or es';
  if (Env = 'production') and not ParamValue('BASEURL', V)
    and (GetIniString('connection', 'production_url', '', IniPath()) = '') then
    Problem := '/ENV=production needs /BASEURL= (the production API address)';
  if (Env = 'qa') and not ParamValue('QAURL', V)
    and (GetIniString('connection', 'qa_url', '', IniPath()) = '') then
    Problem := '/ENV=qa needs /QAURL= (the QA API address)';
  Result := Problem = '';
end;

function InitializeSetup(): Boolean;
var
  Problem: String;
begin
  { Read before Setup registers this install: an upgrade (or a repair) keeps IT's kiosk.ini. }
  InstalledBefore := RegKeyExists(HKLM, UninstallKey);
  DataKept := RegValueExists(HKLM, KeptDataKey, KeptDataValue);
  Result := CheckParameters(Problem);
  if not Result then
  begin
    Log('Parameter refused: ' + Problem);
    SuppressibleMsgBox(Problem, mbCriticalError, MB_OK, IDOK);
  end;
end;

{ /AUTOSTART= when given, else [kiosk] autostart of the existing kiosk.ini (an upgrade
  without parameters keeps the Startup shortcut a previous /AUTOSTART=1 made). }
function SettingAutostart(): Boolean;
var
  V, B: String;
begin
  if not ParamValue('AUTOSTART', V) then
    V := GetIniString('kiosk', 'autostart', 'false', IniPath());
  Result := BoolValue(V, B) and (B = 'true');
end;

{ The Startup shortcut ([Icons] Check): the wizard's task when the wizard was shown
  and no /AUTOSTART= was given, else SettingAutostart. }
function WantAutostart(): Boolean;
var
  V: String;
begin
  if not WizardSilent and not ParamValue('AUTOSTART', V) then
    Result := WizardIsTaskSelected('autostart')
  else
    Result := SettingAutostart();
end;

{ The wizard's autostart box starts as the setting is, not as a previous wizard left it
  (a silent /AUTOSTART=1 never ticked it); set once, so that Back keeps the user's choice. }
procedure CurPageChanged(CurPageID: Integer);
begin
  if (CurPageID = wpSelectTasks) and not AutostartShown then
  begin
    AutostartShown := True;
    if SettingAutostart() then
      WizardSelectTasks('autostart')
    else
      WizardSelectTasks('!autostart');
  end;
end;

{ Write one parameter into kiosk.ini; an absent parameter keeps the file's value. }
procedure WriteParam(const Name, Section, Key: String; IsBool: Boolean);
var
  Raw, Value: String;
begin
  if not ParamValue(Name, Raw) then
    Exit;
  Value := Raw;
  if IsBool and not BoolValue(Raw, Value) then
    Exit;
  if (Key = 'environment') or (Key = 'language') then
    Value := Lowercase(Value);
  if SetIniString(Section, Key, Value, IniPath()) then
    Log(Format('kiosk.ini: [%s] %s = %s', [Section, Key, Value]))
  else
    Log(Format('kiosk.ini: could not write [%s] %s', [Section, Key]));
end;

{ icacls with Args, its output and exit code in Setup's log; True when it exited 0. }
function Icacls(const Args: String): Boolean;
var
  Code: Integer;
begin
  Code := -1;
  if not ExecAndLogOutput(ExpandConstant('{sys}\icacls.exe'), Args, '', SW_HIDE,
    ewWaitUntilTerminated, Code, nil) then
    Log(Format('Data folder ACL: icacls %s: could not run (error %d)', [Args, Code]))
  else
    Log(Format('Data folder ACL: icacls %s: exit code %d', [Args, Code]));
  Result := Code = 0;
end;

{ The data folder's ACL, after kiosk.ini is written ([Dirs] Permissions: can only add to
  what ProgramData passes on). First the folder and everything in it (kiosk.ini included)
  owned by Administrators: an owner may always rewrite its ACL, so a file a user planted
  before the install must change hands. Then every entry of their own removed (/reset:
  they inherit the folder's). Last, the folder's entries replaced by the three of
  DataFolderAcl and the inheritance from ProgramData cut (/inheritance:r: no Users
  "create files", no CREATOR OWNER). A failure is logged, not fatal: IT checks the ACL
  on the first machine as docs\deploy.md says. }
procedure LockDataFolder();
var
  Dir: String;
  Owned, Cleared, Replaced: Boolean;
begin
  Dir := '"' + ExpandConstant('{commonappdata}\{#DataFolder}') + '"';
  Owned := Icacls(Dir + ' /setowner ' + SidAdmins + ' /T /C /Q');
  Cleared := Icacls(Dir + ' /reset /T /C /Q');
  Replaced := Icacls(Dir + ' /inheritance:r /grant:r ' + DataFolderAcl + ' /C /Q');
  if Owned and Cleared and Replaced then
    Log('Data folder ACL: set (Administrators and SYSTEM full control, Users read)')
  else
    Log('Data folder ACL: NOT fully set (see the icacls lines above and docs\deploy.md)');
end;

{ The first install never builds on a kiosk.ini it did not write: set it aside. }
procedure SetAsidePlantedIni();
var
  Aside: String;
begin
  if InstalledBefore or DataKept or not FileExists(IniPath()) then
    Exit;
  Aside := ExpandConstant('{commonappdata}\{#DataFolder}\' + SetAsideIni);
  DeleteFile(Aside);
  if RenameFile(IniPath(), Aside) then
    Log('kiosk.ini: a file found before the first install was set aside as ' + SetAsideIni + ' (not read)')
  else if DeleteFile(IniPath()) then
    Log('kiosk.ini: a file found before the first install was deleted')
  else
    Log('kiosk.ini: a file found before the first install could NOT be set aside');
end;

procedure WriteSettings();
var
  V: String;
begin
  ForceDirectories(ExtractFileDir(IniPath()));
  SetAsidePlantedIni();
  if DataKept then
    RegDeleteValue(HKLM, KeptDataKey, KeptDataValue);  { installed again: the note is spent }
  { Always a kiosk.ini, written by Setup: the parameters below edit it in place, so a
    file IT wrote keeps every key no parameter names. }
  if not FileExists(IniPath()) then
  begin
    if SaveStringToFile(IniPath(), IniHeader, False) then
      Log('kiosk.ini: created')
    else
      Log('kiosk.ini: could not create ' + IniPath());
  end;
  WriteParam('ENV', 'connection', 'environment', False);
  WriteParam('BASEURL', 'connection', 'production_url', False);
  WriteParam('QAURL', 'connection', 'qa_url', False);
  WriteParam('BRANCH', 'connection', 'branch_id', False);
  WriteParam('KIOSKMODE', 'kiosk', 'kiosk_mode', True);
  WriteParam('AUTOSTART', 'kiosk', 'autostart', True);
  WriteParam('LANG', 'display', 'language', False);
  if GetIniString('lock', 'locked', '', IniPath()) = '' then
  begin
    if SetIniString('lock', 'locked', DefaultLocks, IniPath()) then
      Log('kiosk.ini: [lock] locked = ' + DefaultLocks);
  end;
  { The wizard's autostart task, when it was shown and no /AUTOSTART= was given. }
  if not WizardSilent and not ParamValue('AUTOSTART', V) then
  begin
    if WantAutostart() then V := 'true' else V := 'false';
    SetIniString('kiosk', 'autostart', V, IniPath());
  end;
end;

{ Ask every user's kiosk to close, and wait until none holds the running mutex. }
function CloseKiosks(const Cli: String): Boolean;
var
  Code, Waited: Integer;
begin
  if FileExists(Cli) then
  begin
    if Exec(Cli, ShutdownArgs, '', SW_HIDE, ewWaitUntilTerminated, Code) then
    begin
      Log(Format('%s %s: exit code %d', [Cli, ShutdownArgs, Code]));
      if Code = ShutdownClosed then
        KioskWasRunning := True;
    end;
  end;
  Waited := 0;
  while CheckForMutexes('{#RunningMutex},Global\{#RunningMutex}')
    and (Waited < MutexWaitSeconds * 2) do
  begin
    Sleep(500);
    Waited := Waited + 1;
  end;
  Result := not CheckForMutexes('{#RunningMutex},Global\{#RunningMutex}');
end;

function PrepareToInstall(var NeedsRestart: Boolean): String;
begin
  Result := '';
  KioskWasRunning := False;
  if not CloseKiosks(ExpandConstant('{app}\{#CliExe}')) then
    Result := ExpandConstant('{cm:StillRunning}');
end;

function RunsAsSystem(): Boolean;
begin
  Result := CompareText(GetUserNameString, 'SYSTEM') = 0;
end;

function Schtasks(const Args: String): Boolean;
var
  Code: Integer;
begin
  Result := Exec(ExpandConstant('{sys}\schtasks.exe'), Args, '', SW_HIDE,
    ewWaitUntilTerminated, Code) and (Code = 0);
  Log(Format('schtasks %s: exit code %d', [Args, Code]));
end;

{ The task's definition (Task Scheduler schema 1.2). }
function RestartTaskXml(): String;
begin
  Result := '<?xml version="1.0" encoding="UTF-8"?>' + #13#10
    + '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">'
    + '<RegistrationInfo><Description>Starts Loyalty Kiosk again after an upgrade closed it'
    + ' (created by its Setup).</Description></RegistrationInfo>'
    + '<Principals><Principal id="SignedIn"><GroupId>' + InteractiveSid + '</GroupId>'
    + '<RunLevel>LeastPrivilege</RunLevel></Principal></Principals>'
    + '<Settings><MultipleInstancesPolicy>Parallel</MultipleInstancesPolicy>'
    + '<DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>'
    + '<StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>'
    + '<ExecutionTimeLimit>PT0S</ExecutionTimeLimit><Enabled>true</Enabled></Settings>'
    + '<Actions Context="SignedIn"><Exec><Command>"' + ExpandConstant('{app}\{#GuiExe}')
    + '"</Command></Exec></Actions></Task>';
end;

{ Setup as SYSTEM closed a running kiosk: start it again as the signed-in user (a
  start where it already runs only brings it to the front). }
function StartKioskForSignedInUsers(): Boolean;
var
  Xml: String;
  Lines: TArrayOfString;
begin
  Xml := ExpandConstant('{tmp}\restart-task.xml');
  SetArrayLength(Lines, 1);
  Lines[0] := RestartTaskXml();
  Result := SaveStringsToUTF8File(Xml, Lines, False)
    and Schtasks('/Create /F /TN "' + RestartTaskName + '" /XML "' + Xml + '"')
    and Schtasks('/Run /TN "' + RestartTaskName + '"');
end;

procedure CurStepChanged(CurStep: TSetupStep);
var
  Code: Integer;
begin
  if CurStep <> ssPostInstall then
    Exit;
  WriteSettings();
  LockDataFolder();
  if not WantAutostart() then
    DeleteFile(ExpandConstant('{commonstartup}\{#AppName}.lnk'));
  if KioskWasRunning then
  begin
    { Start it again in the session it ran in. Setup running as SYSTEM (a deployment
      tool) has no such session: the on-demand task starts it as the signed-in user;
      only if the task cannot run, ask for a restart instead (or /NORESTART). }
    if RunsAsSystem() then
    begin
      if StartKioskForSignedInUsers() then
        Log('The kiosk was running: started it again for the signed-in user (task "'
          + RestartTaskName + '")')
      else
        RestartNeeded := True;
    end
    else if ExecAsOriginalUser(ExpandConstant('{app}\{#GuiExe}'), '', '', SW_SHOWNORMAL,
      ewNoWait, Code) then
      Log('The kiosk was running: started it again')
    else
      RestartNeeded := True;
    if RestartNeeded then
      Log('The kiosk was running: a restart starts it again');
  end;
end;

function NeedRestart(): Boolean;
begin
  Result := RestartNeeded;
end;

{ "loyalty-kiosk-cli unprovision" for the account running the uninstaller (its keyring
  entries of the kiosk: API keys, the lock's seal), while the program is still there. A
  keyring is per account: the kiosk's own account runs it itself first (docs\deploy.md). }
procedure Unprovision(const Cli: String);
var
  Code: Integer;
begin
  if FileExists(Cli) and Exec(Cli, 'unprovision', '', SW_HIDE, ewWaitUntilTerminated, Code) then
    Log(Format('%s unprovision: exit code %d', [Cli, Code]))
  else
    Log('unprovision could not run');
end;

{ Uninstall: close the kiosks first; delete the data only when asked (/PURGE=1 or Yes). }
function InitializeUninstall(): Boolean;
var
  V, B: String;
  PurgeGiven: Boolean;
begin
  { A wrong /PURGE= stops the uninstaller before anything is closed or removed. }
  PurgeGiven := ParamValue('PURGE', V);
  if PurgeGiven and not BoolValue(V, B) then
  begin
    Log('Parameter refused: /PURGE= must be 1 or 0');
    SuppressibleMsgBox('/PURGE= must be 1 or 0', mbCriticalError, MB_OK, IDOK);
    Result := False;
    Exit;
  end;
  Result := CloseKiosks(ExpandConstant('{app}\{#CliExe}'));
  if not Result then
  begin
    SuppressibleMsgBox(ExpandConstant('{cm:StillRunning}'), mbCriticalError, MB_OK, IDOK);
    Exit;
  end;
  if PurgeGiven then
    PurgeData := B = 'true'
  else if UninstallSilent then
    PurgeData := False
  else
    PurgeData := MsgBox(ExpandConstant('{cm:PurgeQuestion}'), mbConfirmation,
      MB_YESNO or MB_DEFBUTTON2) = IDYES;
  if PurgeData then
    Unprovision(ExpandConstant('{app}\{#CliExe}'));
end;

{ Every profile's %LOCALAPPDATA%\LoyaltyKiosk (outbox, journal, logs, overrides). }
procedure PurgeUserData();
var
  Profiles: String;
  Rec: TFindRec;
begin
  Profiles := ExtractFileDir(GetEnv('PUBLIC'));
  if Profiles = '' then
    Exit;
  if not FindFirst(Profiles + '\*', Rec) then
    Exit;
  try
    repeat
      if ((Rec.Attributes and FILE_ATTRIBUTE_DIRECTORY) <> 0) and (Rec.Name <> '.')
        and (Rec.Name <> '..') then
        DelTree(Profiles + '\' + Rec.Name + '\AppData\Local\{#DataFolder}', True, True, True);
    until not FindNext(Rec);
  finally
    FindClose(Rec);
  end;
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  Code: Integer;
begin
  if CurUninstallStep = usUninstall then
    Exec(ExpandConstant('{sys}\schtasks.exe'), '/Delete /F /TN "' + RestartTaskName + '"', '',
      SW_HIDE, ewWaitUntilTerminated, Code);
  if (CurUninstallStep = usPostUninstall) and PurgeData then
  begin
    Log('Purging the kiosk data (/PURGE)');
    PurgeUserData();
    DelTree(ExpandConstant('{commonappdata}\{#DataFolder}'), True, True, True);
    RegDeleteKeyIncludingSubkeys(HKLM, KeptDataKey);
  end
  else if (CurUninstallStep = usPostUninstall) and FileExists(IniPath()) then
  begin
    { The data stays: the next install keeps this kiosk.ini as IT's. }
    if RegWriteDWordValue(HKLM, KeptDataKey, KeptDataValue, 1) then
      Log('kiosk.ini kept: noted for the next install');
  end;
end;
