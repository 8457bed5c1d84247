// Swagger UI on the service's own OpenAPI document; its assets come from this server (no CDN).
/* global SwaggerUIBundle */
const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.spec,
  domNode: root,
  deepLinking: true,
  tryItOutEnabled: false,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
});
