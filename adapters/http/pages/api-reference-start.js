// Starts Swagger UI on the element the docs page names; a file of its own, as the page's
// content security policy runs no inline script. `validatorUrl: null`: the default would show a
// badge loaded from validator.swagger.io.
const root = document.getElementById("api-reference");
window.SwaggerUIBundle({
  url: root.dataset.url,
  domNode: root,
  validatorUrl: null,
  deepLinking: true,
});
