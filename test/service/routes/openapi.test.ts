import { expect } from "chai";
import { useSeededApp } from "../../helpers/service/app";

describe("OpenAPI route (real SQLite)", function () {
  const { get } = useSeededApp();

  describe("GET /api/v1/openapi.json", function () {
    it("serves an OpenAPI document naming every route", async function () {
      const doc = (await get("/api/v1/openapi.json")).json();
      expect(doc.openapi).to.match(/^3\./);
      expect(Object.keys(doc.paths)).to.include.members([
        "/api/v1/pools",
        "/api/v1/pool/{pool}",
        "/api/v1/attester",
        "/api/v1/verify",
        "/api/v1/health",
        "/api/v1/openapi.json",
      ]);
      expect(doc.components.schemas.Error.properties.error.required).to.deep.equal(["code", "message"]);
      expect(doc.paths["/api/v1/pool/{pool}"].get.responses["409"].content["application/json"].schema).to.deep.equal({
        $ref: "#/components/schemas/Error",
      });
    });
  });
});
