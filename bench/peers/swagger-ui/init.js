// swagger-ui-dist's own index page, with its settings: the standalone layout, the document from a URL.
window.ui = SwaggerUIBundle({
  url: new URLSearchParams(location.search).get('url'),
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout',
});
