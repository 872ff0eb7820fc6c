import { ucs2length } from "../generated/runtime/validate/ajv-runtime.js";
import { formats } from "../generated/runtime/validate/formats.js";
const schema31 = {"properties":{"duration_minutes":{"enum":[15,30,45,60,90,120]},"room":{"anyOf":[{"enum":["atlas","borealis","cosmos"]}]}}};
const func0 = Object.prototype.hasOwnProperty;
const func70 = ucs2length;
const formats0 = formats["date-time"];
const formats2 = formats.email;

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
if((data.title === undefined) || (!(func0.call(data, "title")))){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "title"},message:"must have required property '"+"title"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if((data.starts_at === undefined) || (!(func0.call(data, "starts_at")))){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "starts_at"},message:"must have required property '"+"starts_at"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if((data.duration_minutes === undefined) || (!(func0.call(data, "duration_minutes")))){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "duration_minutes"},message:"must have required property '"+"duration_minutes"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if((data.attendees === undefined) || (!(func0.call(data, "attendees")))){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "attendees"},message:"must have required property '"+"attendees"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if((data.send_invites === undefined) || (!(func0.call(data, "send_invites")))){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "send_invites"},message:"must have required property '"+"send_invites"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key0 of Object.keys(data)){
if(!((((((key0 === "title") || (key0 === "starts_at")) || (key0 === "duration_minutes")) || (key0 === "attendees")) || (key0 === "room")) || (key0 === "send_invites"))){
const err5 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.title !== undefined && func0.call(data, "title")){
let data0 = data.title;
if(typeof data0 === "string"){
if(func70(data0) > 120){
const err6 = {instancePath:instancePath+"/title",schemaPath:"#/properties/title/maxLength",keyword:"maxLength",params:{limit: 120},message:"must NOT have more than 120 characters"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(func70(data0) < 1){
const err7 = {instancePath:instancePath+"/title",schemaPath:"#/properties/title/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/title",schemaPath:"#/properties/title/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.starts_at !== undefined && func0.call(data, "starts_at")){
let data1 = data.starts_at;
if(typeof data1 === "string"){
if(!(formats0(data1))){
const err9 = {instancePath:instancePath+"/starts_at",schemaPath:"#/properties/starts_at/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/starts_at",schemaPath:"#/properties/starts_at/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.duration_minutes !== undefined && func0.call(data, "duration_minutes")){
let data2 = data.duration_minutes;
if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){
const err11 = {instancePath:instancePath+"/duration_minutes",schemaPath:"#/properties/duration_minutes/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!((((((data2 === 15) || (data2 === 30)) || (data2 === 45)) || (data2 === 60)) || (data2 === 90)) || (data2 === 120))){
const err12 = {instancePath:instancePath+"/duration_minutes",schemaPath:"#/properties/duration_minutes/enum",keyword:"enum",params:{allowedValues: schema31.properties.duration_minutes.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.attendees !== undefined && func0.call(data, "attendees")){
let data3 = data.attendees;
if(Array.isArray(data3)){
if(data3.length > 50){
const err13 = {instancePath:instancePath+"/attendees",schemaPath:"#/properties/attendees/maxItems",keyword:"maxItems",params:{limit: 50},message:"must NOT have more than 50 items"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data3.length < 1){
const err14 = {instancePath:instancePath+"/attendees",schemaPath:"#/properties/attendees/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if((data4.email === undefined) || (!(func0.call(data4, "email")))){
const err15 = {instancePath:instancePath+"/attendees/" + i0,schemaPath:"#/properties/attendees/items/required",keyword:"required",params:{missingProperty: "email"},message:"must have required property '"+"email"+"'"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
for(const key1 of Object.keys(data4)){
if(!((key1 === "email") || (key1 === "optional"))){
const err16 = {instancePath:instancePath+"/attendees/" + i0,schemaPath:"#/properties/attendees/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data4.email !== undefined && func0.call(data4, "email")){
let data5 = data4.email;
if(typeof data5 === "string"){
if(!(formats2(data5))){
const err17 = {instancePath:instancePath+"/attendees/" + i0+"/email",schemaPath:"#/properties/attendees/items/properties/email/format",keyword:"format",params:{format: "email"},message:"must match format \""+"email"+"\""};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/attendees/" + i0+"/email",schemaPath:"#/properties/attendees/items/properties/email/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data4.optional !== undefined && func0.call(data4, "optional")){
if(typeof data4.optional !== "boolean"){
const err19 = {instancePath:instancePath+"/attendees/" + i0+"/optional",schemaPath:"#/properties/attendees/items/properties/optional/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/attendees/" + i0,schemaPath:"#/properties/attendees/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/attendees",schemaPath:"#/properties/attendees/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.room !== undefined && func0.call(data, "room")){
let data7 = data.room;
const _errs18 = errors;
let valid4 = false;
const _errs19 = errors;
if(typeof data7 !== "string"){
const err22 = {instancePath:instancePath+"/room",schemaPath:"#/properties/room/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
if(!(((data7 === "atlas") || (data7 === "borealis")) || (data7 === "cosmos"))){
const err23 = {instancePath:instancePath+"/room",schemaPath:"#/properties/room/anyOf/0/enum",keyword:"enum",params:{allowedValues: schema31.properties.room.anyOf[0].enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
var _valid0 = _errs19 === errors;
valid4 = valid4 || _valid0;
const _errs21 = errors;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
if((data7.video === undefined) || (!(func0.call(data7, "video")))){
const err24 = {instancePath:instancePath+"/room",schemaPath:"#/properties/room/anyOf/1/required",keyword:"required",params:{missingProperty: "video"},message:"must have required property '"+"video"+"'"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
for(const key2 of Object.keys(data7)){
if(!(key2 === "video")){
const err25 = {instancePath:instancePath+"/room",schemaPath:"#/properties/room/anyOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data7.video !== undefined && func0.call(data7, "video")){
if(true !== data7.video){
const err26 = {instancePath:instancePath+"/room/video",schemaPath:"#/properties/room/anyOf/1/properties/video/const",keyword:"const",params:{allowedValue: true},message:"must be equal to constant"};
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
const err27 = {instancePath:instancePath+"/room",schemaPath:"#/properties/room/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
var _valid0 = _errs21 === errors;
valid4 = valid4 || _valid0;
if(!valid4){
const err28 = {instancePath:instancePath+"/room",schemaPath:"#/properties/room/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
else {
errors = _errs18;
if(vErrors !== null){
if(_errs18){
vErrors.length = _errs18;
}
else {
vErrors = null;
}
}
}
}
if(data.send_invites !== undefined && func0.call(data, "send_invites")){
if(typeof data.send_invites !== "boolean"){
const err29 = {instancePath:instancePath+"/send_invites",schemaPath:"#/properties/send_invites/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
}
else {
const err30 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};
export { validate20 as validate, validate20 as default };
