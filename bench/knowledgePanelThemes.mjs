// A subset of VS Code's theme variables (Dark Modern, Light Modern, High Contrast), as the
// workbench injects them into webviews; enough to render the Knowledge panel like VS Code does.
const font = {
  '--vscode-font-family': "-apple-system, BlinkMacSystemFont, 'Segoe WPC', 'Segoe UI', 'Ubuntu', 'Droid Sans', sans-serif",
  '--vscode-font-size': '13px',
  '--vscode-font-weight': 'normal',
};

export const THEMES = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      ...font,
      '--vscode-foreground': '#cccccc', '--vscode-descriptionForeground': '#9d9d9d', '--vscode-errorForeground': '#f85149',
      '--vscode-focusBorder': '#0078d4', '--vscode-sideBar-background': '#181818', '--vscode-editor-background': '#1f1f1f',
      '--vscode-panel-border': '#2b2b2b', '--vscode-widget-border': '#313131', '--vscode-editorWidget-border': '#454545',
      '--vscode-input-background': '#313131', '--vscode-input-foreground': '#cccccc', '--vscode-input-border': '#3c3c3c', '--vscode-input-placeholderForeground': '#989898',
      '--vscode-dropdown-background': '#313131', '--vscode-dropdown-foreground': '#cccccc', '--vscode-dropdown-border': '#3c3c3c',
      '--vscode-button-background': '#0078d4', '--vscode-button-foreground': '#ffffff', '--vscode-button-hoverBackground': '#026ec1', '--vscode-button-border': '#ffffff12',
      '--vscode-button-secondaryBackground': '#313131', '--vscode-button-secondaryForeground': '#cccccc', '--vscode-button-secondaryHoverBackground': '#3c3c3c',
      '--vscode-badge-background': '#616161', '--vscode-badge-foreground': '#f8f8f8',
      '--vscode-list-hoverBackground': '#2a2d2e', '--vscode-list-activeSelectionBackground': '#04395e', '--vscode-list-activeSelectionForeground': '#ffffff',
      '--vscode-list-inactiveSelectionBackground': '#37373d', '--vscode-list-focusOutline': '#0078d4',
      '--vscode-textLink-foreground': '#4daafc', '--vscode-textLink-activeForeground': '#4daafc', '--vscode-progressBar-background': '#0078d4',
      '--vscode-charts-green': '#89d185', '--vscode-charts-yellow': '#cca700', '--vscode-charts-red': '#f14c4c',
      '--vscode-panelTitle-activeForeground': '#cccccc', '--vscode-panelTitle-inactiveForeground': '#9d9d9d', '--vscode-panelTitle-activeBorder': '#0078d4',
      '--vscode-inputValidation-errorBackground': '#5a1d1d', '--vscode-inputValidation-errorBorder': '#be1100',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      ...font,
      '--vscode-foreground': '#3b3b3b', '--vscode-descriptionForeground': '#717171', '--vscode-errorForeground': '#f85149',
      '--vscode-focusBorder': '#005fb8', '--vscode-sideBar-background': '#f8f8f8', '--vscode-editor-background': '#ffffff',
      '--vscode-panel-border': '#e5e5e5', '--vscode-widget-border': '#e5e5e5', '--vscode-editorWidget-border': '#c8c8c8',
      '--vscode-input-background': '#ffffff', '--vscode-input-foreground': '#3b3b3b', '--vscode-input-border': '#cecece', '--vscode-input-placeholderForeground': '#767676',
      '--vscode-dropdown-background': '#ffffff', '--vscode-dropdown-foreground': '#3b3b3b', '--vscode-dropdown-border': '#cecece',
      '--vscode-button-background': '#005fb8', '--vscode-button-foreground': '#ffffff', '--vscode-button-hoverBackground': '#0258a8', '--vscode-button-border': '#0000001a',
      '--vscode-button-secondaryBackground': '#e5e5e5', '--vscode-button-secondaryForeground': '#3b3b3b', '--vscode-button-secondaryHoverBackground': '#cccccc',
      '--vscode-badge-background': '#cccccc', '--vscode-badge-foreground': '#3b3b3b',
      '--vscode-list-hoverBackground': '#f2f2f2', '--vscode-list-activeSelectionBackground': '#e8e8e8', '--vscode-list-activeSelectionForeground': '#000000',
      '--vscode-list-inactiveSelectionBackground': '#e4e6f1', '--vscode-list-focusOutline': '#005fb8',
      '--vscode-textLink-foreground': '#005fb8', '--vscode-textLink-activeForeground': '#005fb8', '--vscode-progressBar-background': '#005fb8',
      '--vscode-charts-green': '#388a34', '--vscode-charts-yellow': '#bf8803', '--vscode-charts-red': '#e51400',
      '--vscode-panelTitle-activeForeground': '#3b3b3b', '--vscode-panelTitle-inactiveForeground': '#3b3b3b', '--vscode-panelTitle-activeBorder': '#005fb8',
      '--vscode-inputValidation-errorBackground': '#f2dede', '--vscode-inputValidation-errorBorder': '#be1100',
    },
  },
  hc: {
    bodyClass: 'vscode-high-contrast',
    vars: {
      ...font,
      '--vscode-foreground': '#ffffff', '--vscode-descriptionForeground': '#ffffffb3', '--vscode-errorForeground': '#f48771',
      '--vscode-focusBorder': '#f38518', '--vscode-contrastBorder': '#6fc3df', '--vscode-contrastActiveBorder': '#f38518',
      '--vscode-sideBar-background': '#000000', '--vscode-editor-background': '#000000', '--vscode-panel-border': '#6fc3df',
      '--vscode-input-background': '#000000', '--vscode-input-foreground': '#ffffff', '--vscode-input-border': '#6fc3df',
      '--vscode-dropdown-background': '#000000', '--vscode-dropdown-foreground': '#ffffff', '--vscode-dropdown-border': '#6fc3df',
      '--vscode-button-background': '#000000', '--vscode-button-foreground': '#ffffff', '--vscode-button-border': '#6fc3df',
      '--vscode-button-secondaryBackground': '#000000', '--vscode-button-secondaryForeground': '#ffffff',
      '--vscode-badge-background': '#000000', '--vscode-badge-foreground': '#ffffff',
      '--vscode-list-focusOutline': '#f38518', '--vscode-textLink-foreground': '#21a6ff', '--vscode-progressBar-background': '#6fc3df',
      '--vscode-charts-green': '#89d185', '--vscode-charts-yellow': '#ffd700', '--vscode-charts-red': '#f48771',
      '--vscode-panelTitle-activeForeground': '#ffffff', '--vscode-panelTitle-activeBorder': '#6fc3df',
    },
  },
};
