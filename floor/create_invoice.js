import { ucs2length } from "../generated/runtime/validate/ajv-runtime.js";
import { formats } from "../generated/runtime/validate/formats.js";
import { linearRegExp } from "../generated/runtime/validate/pattern.js";
const schema31 = {"properties":{"currency":{"enum":["USD","EUR","GBP"]}}};
const func0 = Object.prototype.hasOwnProperty;
const func71 = ucs2length;
const func1 = linearRegExp;
const formats0 = formats.date;
const pattern4 = func1("^[A-Z0-9-]{3,32}$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if((data.amount === undefined) || (!(func0.call(data, "amount")))){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "amount"},message:"must have required property '"+"amount"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if((data.currency === undefined) || (!(func0.call(data, "currency")))){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "currency"},message:"must have required property '"+"currency"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if((data.customer_ref === undefined) || (!(func0.call(data, "customer_ref")))){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "customer_ref"},message:"must have required property '"+"customer_ref"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if((data.line_items === undefined) || (!(func0.call(data, "line_items")))){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "line_items"},message:"must have required property '"+"line_items"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 of Object.keys(data)){
if(!((((((key0 === "amount") || (key0 === "currency")) || (key0 === "customer_ref")) || (key0 === "due_date")) || (key0 === "line_items")) || (key0 === "memo"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.amount !== undefined && func0.call(data, "amount")){
let data0 = data.amount;
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 < 0 || isNaN(data0)){
const err5 = {instancePath:instancePath+"/amount",schemaPath:"#/properties/amount/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/amount",schemaPath:"#/properties/amount/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.currency !== undefined && func0.call(data, "currency")){
let data1 = data.currency;
if(typeof data1 !== "string"){
const err7 = {instancePath:instancePath+"/currency",schemaPath:"#/properties/currency/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(!(((data1 === "USD") || (data1 === "EUR")) || (data1 === "GBP"))){
const err8 = {instancePath:instancePath+"/currency",schemaPath:"#/properties/currency/enum",keyword:"enum",params:{allowedValues: schema31.properties.currency.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.customer_ref !== undefined && func0.call(data, "customer_ref")){
let data2 = data.customer_ref;
if(typeof data2 === "string"){
if(func71(data2) > 200){
const err9 = {instancePath:instancePath+"/customer_ref",schemaPath:"#/properties/customer_ref/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(func71(data2) < 2){
const err10 = {instancePath:instancePath+"/customer_ref",schemaPath:"#/properties/customer_ref/minLength",keyword:"minLength",params:{limit: 2},message:"must NOT have fewer than 2 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/customer_ref",schemaPath:"#/properties/customer_ref/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.due_date !== undefined && func0.call(data, "due_date")){
let data3 = data.due_date;
if(typeof data3 === "string"){
if(!(formats0(data3))){
const err12 = {instancePath:instancePath+"/due_date",schemaPath:"#/properties/due_date/format",keyword:"format",params:{format: "date"},message:"must match format \""+"date"+"\""};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/due_date",schemaPath:"#/properties/due_date/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.line_items !== undefined && func0.call(data, "line_items")){
let data4 = data.line_items;
if(Array.isArray(data4)){
if(data4.length > 100){
const err14 = {instancePath:instancePath+"/line_items",schemaPath:"#/properties/line_items/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(data4.length < 1){
const err15 = {instancePath:instancePath+"/line_items",schemaPath:"#/properties/line_items/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
let data5 = data4[i0];
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if((data5.sku === undefined) || (!(func0.call(data5, "sku")))){
const err16 = {instancePath:instancePath+"/line_items/" + i0,schemaPath:"#/$defs/line_item/required",keyword:"required",params:{missingProperty: "sku"},message:"must have required property '"+"sku"+"'"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if((data5.quantity === undefined) || (!(func0.call(data5, "quantity")))){
const err17 = {instancePath:instancePath+"/line_items/" + i0,schemaPath:"#/$defs/line_item/required",keyword:"required",params:{missingProperty: "quantity"},message:"must have required property '"+"quantity"+"'"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if((data5.unit_price === undefined) || (!(func0.call(data5, "unit_price")))){
const err18 = {instancePath:instancePath+"/line_items/" + i0,schemaPath:"#/$defs/line_item/required",keyword:"required",params:{missingProperty: "unit_price"},message:"must have required property '"+"unit_price"+"'"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
for(const key1 of Object.keys(data5)){
if(!(((key1 === "sku") || (key1 === "quantity")) || (key1 === "unit_price"))){
const err19 = {instancePath:instancePath+"/line_items/" + i0,schemaPath:"#/$defs/line_item/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data5.sku !== undefined && func0.call(data5, "sku")){
let data6 = data5.sku;
if(typeof data6 === "string"){
if(!pattern4.test(data6)){
const err20 = {instancePath:instancePath+"/line_items/" + i0+"/sku",schemaPath:"#/$defs/line_item/properties/sku/pattern",keyword:"pattern",params:{pattern: "^[A-Z0-9-]{3,32}$"},message:"must match pattern \""+"^[A-Z0-9-]{3,32}$"+"\""};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/line_items/" + i0+"/sku",schemaPath:"#/$defs/line_item/properties/sku/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data5.quantity !== undefined && func0.call(data5, "quantity")){
let data7 = data5.quantity;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
const err22 = {instancePath:instancePath+"/line_items/" + i0+"/quantity",schemaPath:"#/$defs/line_item/properties/quantity/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 10000 || isNaN(data7)){
const err23 = {instancePath:instancePath+"/line_items/" + i0+"/quantity",schemaPath:"#/$defs/line_item/properties/quantity/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
if(data7 < 1 || isNaN(data7)){
const err24 = {instancePath:instancePath+"/line_items/" + i0+"/quantity",schemaPath:"#/$defs/line_item/properties/quantity/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
if(data5.unit_price !== undefined && func0.call(data5, "unit_price")){
let data8 = data5.unit_price;
if((typeof data8 == "number") && (isFinite(data8))){
if(data8 < 0 || isNaN(data8)){
const err25 = {instancePath:instancePath+"/line_items/" + i0+"/unit_price",schemaPath:"#/$defs/line_item/properties/unit_price/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
else {
const err26 = {instancePath:instancePath+"/line_items/" + i0+"/unit_price",schemaPath:"#/$defs/line_item/properties/unit_price/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/line_items/" + i0,schemaPath:"#/$defs/line_item/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/line_items",schemaPath:"#/properties/line_items/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.memo !== undefined && func0.call(data, "memo")){
let data9 = data.memo;
if(typeof data9 === "string"){
if(func71(data9) > 500){
const err29 = {instancePath:instancePath+"/memo",schemaPath:"#/properties/memo/maxLength",keyword:"maxLength",params:{limit: 500},message:"must NOT have more than 500 characters"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
else {
const err30 = {instancePath:instancePath+"/memo",schemaPath:"#/properties/memo/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};
export { validate20 as validate, validate20 as default };
