// Partner JWT key form: show the field the chosen algorithm uses (the secret for HS256, the PEM for RS256).
document.addEventListener("DOMContentLoaded", function () {
  var algorithm = document.getElementById("id_algorithm");
  if (!algorithm) return;
  function row(name) { return document.querySelector(".field-" + name) || document.querySelector(".form-row.field-" + name); }
  function apply() {
    var hs256 = algorithm.value !== "RS256";
    if (row("secret")) row("secret").hidden = !hs256;
    if (row("key")) row("key").hidden = hs256;
  }
  algorithm.addEventListener("change", apply);
  apply();
});
