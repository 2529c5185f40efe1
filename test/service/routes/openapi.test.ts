import SwaggerParser from "@apidevtools/swagger-parser";
import { expect } from "chai";
import { toOpenApi30Bounds } from "../../../src/service/plugins/external/swagger";
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

    it("is a valid OpenAPI 3.0.3 document (swagger-parser), bounds in the 3.0 form, with a server", async function () {
      const doc = (await get("/api/v1/openapi.json")).json();
      expect(doc.openapi).to.equal("3.0.3");
      expect(doc.servers).to.deep.equal([{ url: "/", description: "this service" }]);
      const amount =
        doc.paths["/api/v1/liquidity-requests"].post.requestBody.content["application/json"].schema.properties
          .amountUsd;
      expect(amount).to.include({ minimum: 0, exclusiveMinimum: true });
      await SwaggerParser.validate(structuredClone(doc));
      // What the validator refuses: the JSON Schema form of the same bound.
      const numeric = structuredClone(doc);
      numeric.paths["/api/v1/liquidity-requests"].post.requestBody.content[
        "application/json"
      ].schema.properties.amountUsd = {
        type: "number",
        exclusiveMinimum: 0,
      };
      const refused = await SwaggerParser.validate(numeric).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused, "swagger-parser refuses a numeric exclusiveMinimum in 3.0.3").to.be.instanceOf(Error);
    });

    it("toOpenApi30Bounds moves numeric exclusive bounds into minimum/maximum, anywhere in the document", function () {
      const doc = {
        a: { exclusiveMinimum: 0, maximum: 5 },
        b: [{ exclusiveMaximum: 9 }],
        c: { exclusiveMinimum: true, minimum: 1 },
      };
      expect(toOpenApi30Bounds(doc)).to.deep.equal({
        a: { minimum: 0, exclusiveMinimum: true, maximum: 5 },
        b: [{ maximum: 9, exclusiveMaximum: true }],
        c: { exclusiveMinimum: true, minimum: 1 },
      });
    });
  });
});
