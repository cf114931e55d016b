"""The kiosk's settings: the layers (installer's machine-wide file, the manager's
local overrides), their files and values, the platform paths, the branch last used
and the connection's binding."""
