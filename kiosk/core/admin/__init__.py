"""The manager's back office: clients, point items, levels, operators and rewards
administered through the API, their forms and paging, and the settings page's service."""
